/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_SSR_H_
#define _QAIC_SSR_H_

struct qaic_device;

void qaic_ssr_init(struct qaic_device *qdev);
int qaic_ssr_register(void);
void qaic_ssr_unregister(void);

#endif /* _QAIC_SSR_H_ */
