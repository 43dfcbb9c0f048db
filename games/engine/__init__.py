"""The rules of Düz Okey and Eşli Okey as a pure library: no Django, no I/O, no clock, no global random."""
