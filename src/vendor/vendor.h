/* Vendor libraries used as comparison anchors (never by the solvers). */
#ifndef AXB_VENDOR_H
#define AXB_VENDOR_H

#include "axb.h"

#endif
