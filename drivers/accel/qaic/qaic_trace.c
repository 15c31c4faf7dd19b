// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/* The tracepoints declared in qaic_trace.h are defined here, once. */
#define CREATE_TRACE_POINTS
#include "qaic_trace.h"
