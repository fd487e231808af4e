#include "CShims.h"
#include <libavutil/log.h>

int lp_averror_eof(void) { return AVERROR_EOF; }
int lp_averror_eagain(void) { return AVERROR(EAGAIN); }
int64_t lp_av_nopts_value(void) { return AV_NOPTS_VALUE; }
AVRational lp_av_time_base_q(void) { return AV_TIME_BASE_Q; }
void lp_av_error_string(int code, char *buffer, int size) { av_strerror(code, buffer, (size_t)size); }
void lp_av_log_quiet(void) { av_log_set_level(AV_LOG_QUIET); }
