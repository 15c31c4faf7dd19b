/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_TIMESYNC_H_
#define _QAIC_TIMESYNC_H_

int qaic_timesync_register(void);
void qaic_timesync_unregister(void);

#endif /* _QAIC_TIMESYNC_H_ */
