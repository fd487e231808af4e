#include <ass/ass.h>
