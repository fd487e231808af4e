#include <lcms2.h>

// lcms2's pixel types are macros Swift cannot import.
static inline cmsUInt32Number lp_cms_type_bgra_8(void) { return TYPE_BGRA_8; }
