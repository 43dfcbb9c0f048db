"""Error reports that never show a function's local variables.

Django's debug page (DEBUG on) and its error e-mails list every frame's locals: in a move those
are the stock order and every rack. No page or report may carry game state, so no locals at all.
"""

from django.views.debug import SafeExceptionReporterFilter


class NoLocalsFilter(SafeExceptionReporterFilter):
    def get_traceback_frame_variables(self, request, tb_frame):
        return []
