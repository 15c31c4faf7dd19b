/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_CNTL_H_
#define _QAIC_CNTL_H_

#include <linux/minmax.h>
#include <linux/types.h>

#include "qaic_nnc_wire.h"

struct qaic_cntl;
struct qaic_device;

/*
 * Largest request: the length field of an MHI transfer descriptor has 16
 * bits, one short of the protocol's limit.
 */
#define QAIC_CNTL_MAX_REQ_LEN	min(QAIC_NNC_MAX_REQ_LEN, 0xffff)

/* Bytes a response buffer passed to qaic_cntl_xfer() must hold. */
#define QAIC_CNTL_RSP_SIZE	QAIC_NNC_MAX_RSP_LEN

int qaic_cntl_init(struct qaic_device *qdev);
int qaic_cntl_register(void);
void qaic_cntl_unregister(void);
void qaic_cntl_powering_up(struct qaic_cntl *cntl);
void qaic_cntl_sys_error(struct qaic_cntl *cntl);
void qaic_cntl_stopping(struct qaic_cntl *cntl);
int qaic_cntl_wait_up(struct qaic_cntl *cntl);
bool qaic_cntl_refused(struct qaic_cntl *cntl);
bool qaic_cntl_is_up(struct qaic_cntl *cntl);
unsigned long qaic_cntl_answer_timeout(void);
int qaic_cntl_xfer(struct qaic_cntl *cntl, const void *msg, size_t len,
		   void *rsp, size_t *rsp_len, bool *queued);
int qaic_cntl_xfer_release(struct qaic_cntl *cntl, const void *msg, size_t len,
			   void *rsp, size_t *rsp_len);

#endif /* _QAIC_CNTL_H_ */
