"""Learning to play: the rules page for players, and the first hand (a lesson table with a
coach). Builds on the table (a lesson is a real practice table) and reads the engine."""
