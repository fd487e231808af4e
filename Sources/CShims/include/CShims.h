#ifndef LAYERPLAY_CSHIMS_H
#define LAYERPLAY_CSHIMS_H
#include <stdint.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>

/// FFmpeg macros that Swift cannot import, as functions.
int lp_averror_eof(void);
int lp_averror_eagain(void);
/// AVERROR_EXIT: an interrupt callback asked FFmpeg to give up.
int lp_averror_exit(void);
/// AVERROR(EPIPE): the reader of an output went away.
int lp_averror_epipe(void);
int64_t lp_av_nopts_value(void);
AVRational lp_av_time_base_q(void);
/// The text of an FFmpeg error code ("Invalid data found when processing input").
void lp_av_error_string(int code, char *buffer, int size);
/// Silences FFmpeg's own logging (errors reach the user through our messages, one line each) but keeps, per
/// thread, the last error it logged: the reason behind a bare "Invalid argument".
void lp_av_log_keep_errors(void);
/// Forgets this thread's last logged error (before a call whose reason we want).
void lp_av_clear_error(void);
/// This thread's last logged error without its line end, into `buffer`; returns its length (0: none).
int lp_av_last_error(char *buffer, int size);

/// Keeps up to `bytes` of freed heap for reuse instead of returning it to the kernel at once (glibc's
/// M_TRIM_THRESHOLD). A host frees one snapshot and builds the next every frame; with glibc's 128 KB default the
/// same pages were faulted in again each frame. Also keeps blocks up to 32 MB on the heap (M_MMAP_THRESHOLD), where
/// glibc's dynamic threshold would have put them had the first setting not turned it off.
void lp_keep_freed_heap(int bytes);
#endif
