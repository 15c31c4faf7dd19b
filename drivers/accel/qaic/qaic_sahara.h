/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_SAHARA_H_
#define _QAIC_SAHARA_H_

int qaic_sahara_register(void);
void qaic_sahara_unregister(void);
unsigned long qaic_sahara_timeout(void);

#endif /* _QAIC_SAHARA_H_ */
