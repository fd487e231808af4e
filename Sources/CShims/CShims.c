#include <malloc.h>
#include "CShims.h"
#include <libavutil/log.h>
#include <stdio.h>
#include <string.h>

int lp_averror_eof(void) { return AVERROR_EOF; }
int lp_averror_eagain(void) { return AVERROR(EAGAIN); }
int64_t lp_av_nopts_value(void) { return AV_NOPTS_VALUE; }
AVRational lp_av_time_base_q(void) { return AV_TIME_BASE_Q; }
void lp_av_error_string(int code, char *buffer, int size) { av_strerror(code, buffer, (size_t)size); }

// The last error FFmpeg logged on this thread. Thread-local: an encoder or muxer logs its reason on the thread
// that opens it, while decoding threads log their own (unrelated) complaints.
static _Thread_local char last_error[512];
// Whether the last piece logged on this thread ended its line (a message may come in several av_log calls).
static _Thread_local int line_open;

static void keep_errors(void *context, int level, const char *format, va_list arguments) {
    (void)context;
    if (level > AV_LOG_ERROR) return;
    size_t used = line_open ? strlen(last_error) : 0;
    if (used < sizeof last_error - 1) vsnprintf(last_error + used, sizeof last_error - used, format, arguments);
    size_t length = strlen(last_error);
    line_open = length == 0 || last_error[length - 1] != '\n';
}

void lp_av_log_keep_errors(void) {
    av_log_set_level(AV_LOG_ERROR); // code that asks the level first (libvpx's settings dump) skips its work
    av_log_set_callback(keep_errors);
}

void lp_av_clear_error(void) { last_error[0] = 0; line_open = 0; }

int lp_av_last_error(char *buffer, int size) {
    size_t length = strlen(last_error);
    while (length > 0 && (last_error[length - 1] == '\n' || last_error[length - 1] == ' ' || last_error[length - 1] == '.')) length--;
    if (size <= 0) return 0;
    if (length > (size_t)size - 1) length = (size_t)size - 1;
    memcpy(buffer, last_error, length);
    buffer[length] = 0;
    return (int)length;
}

void lp_keep_freed_heap(int bytes) {
    mallopt(M_TRIM_THRESHOLD, bytes);
    // Setting any threshold turns off glibc's dynamic mmap threshold (which would have risen to the size of the
    // blocks freed), leaving it at 128 KB: every picture-sized block (decoder pools, packets, the encoder's own
    // buffers) was then mapped and unmapped each time, and its pages zeroed again. Set it where the dynamic one stops.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
}

int lp_averror_exit(void) { return AVERROR_EXIT; }
int lp_averror_epipe(void) { return AVERROR(EPIPE); }
