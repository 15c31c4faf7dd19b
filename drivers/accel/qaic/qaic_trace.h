/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

/*
 * Tracepoints of the qaic driver: events/qaic/ in tracefs. A job is named
 * by its DBC and the seqno of its hardware fence from queued to done; the
 * req_id the device sees is known from run on.
 */

#if !defined(_QAIC_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _QAIC_TRACE_H_

#include <linux/tracepoint.h>
#include <linux/types.h>

#include "qaic_drv.h"

#undef TRACE_SYSTEM
#define TRACE_SYSTEM qaic
#define TRACE_INCLUDE_FILE qaic_trace

TRACE_EVENT(qaic_job_queued,
	    TP_PROTO(struct qaic_device *qdev, u32 dbc, u64 seqno, u32 requests),
	    TP_ARGS(qdev, dbc, seqno, requests),
	    TP_STRUCT__entry(__string(dev, dev_name(qdev->drm.dev))
			     __field(u32, dbc)
			     __field(u64, seqno)
			     __field(u32, requests)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->dbc = dbc;
			   __entry->seqno = seqno;
			   __entry->requests = requests;),
	    TP_printk("dev=%s dbc=%u seqno=%llu requests=%u", __get_str(dev), __entry->dbc,
		      __entry->seqno, __entry->requests)
);

TRACE_EVENT(qaic_job_run,
	    TP_PROTO(struct qaic_device *qdev, u32 dbc, u64 seqno, u16 req_id, u32 requests,
		     u32 tail),
	    TP_ARGS(qdev, dbc, seqno, req_id, requests, tail),
	    TP_STRUCT__entry(__string(dev, dev_name(qdev->drm.dev))
			     __field(u32, dbc)
			     __field(u64, seqno)
			     __field(u16, req_id)
			     __field(u32, requests)
			     __field(u32, tail)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->dbc = dbc;
			   __entry->seqno = seqno;
			   __entry->req_id = req_id;
			   __entry->requests = requests;
			   __entry->tail = tail;),
	    TP_printk("dev=%s dbc=%u seqno=%llu req_id=%u requests=%u tail=%u", __get_str(dev),
		      __entry->dbc, __entry->seqno, __entry->req_id, __entry->requests,
		      __entry->tail)
);

TRACE_EVENT(qaic_job_done,
	    TP_PROTO(struct qaic_device *qdev, u32 dbc, u64 seqno, u16 req_id, u32 requests,
		     int error),
	    TP_ARGS(qdev, dbc, seqno, req_id, requests, error),
	    TP_STRUCT__entry(__string(dev, dev_name(qdev->drm.dev))
			     __field(u32, dbc)
			     __field(u64, seqno)
			     __field(u16, req_id)
			     __field(u32, requests)
			     __field(int, error)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->dbc = dbc;
			   __entry->seqno = seqno;
			   __entry->req_id = req_id;
			   __entry->requests = requests;
			   __entry->error = error;),
	    TP_printk("dev=%s dbc=%u seqno=%llu req_id=%u requests=%u error=%d", __get_str(dev),
		      __entry->dbc, __entry->seqno, __entry->req_id, __entry->requests,
		      __entry->error)
);

TRACE_EVENT(qaic_dbc_reset,
	    TP_PROTO(struct qaic_device *qdev, u32 dbc, u32 reqhp, u32 tail),
	    TP_ARGS(qdev, dbc, reqhp, tail),
	    TP_STRUCT__entry(__string(dev, dev_name(qdev->drm.dev))
			     __field(u32, dbc)
			     __field(u32, reqhp)
			     __field(u32, tail)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->dbc = dbc;
			   __entry->reqhp = reqhp;
			   __entry->tail = tail;),
	    TP_printk("dev=%s dbc=%u reqhp=%u tail=%u", __get_str(dev), __entry->dbc,
		      __entry->reqhp, __entry->tail)
);

TRACE_EVENT(qaic_dbc_state,
	    TP_PROTO(struct qaic_device *qdev, u32 dbc, u32 state),
	    TP_ARGS(qdev, dbc, state),
	    TP_STRUCT__entry(__string(dev, dev_name(qdev->drm.dev))
			     __field(u32, dbc)
			     __field(u32, state)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->dbc = dbc;
			   __entry->state = state;),
	    TP_printk("dev=%s dbc=%u state=%s", __get_str(dev), __entry->dbc,
		      __print_symbolic(__entry->state,
				       { QAIC_DBC_IDLE, "IDLE" },
				       { QAIC_DBC_ASSIGNED, "ASSIGNED" },
				       { QAIC_DBC_BEFORE_SHUTDOWN, "BEFORE_SHUTDOWN" },
				       { QAIC_DBC_AFTER_SHUTDOWN, "AFTER_SHUTDOWN" },
				       { QAIC_DBC_BEFORE_POWER_UP, "BEFORE_POWER_UP" },
				       { QAIC_DBC_AFTER_POWER_UP, "AFTER_POWER_UP" }))
);

TRACE_EVENT(qaic_card_state,
	    TP_PROTO(struct qaic_device *qdev, const char *state, const char *why),
	    TP_ARGS(qdev, state, why),
	    TP_STRUCT__entry(__string(dev, dev_name(qdev->drm.dev))
			     __string(state, state)
			     __string(why, why)),
	    TP_fast_assign(__assign_str(dev);
			   __assign_str(state);
			   __assign_str(why);),
	    TP_printk("dev=%s state=%s why=%s", __get_str(dev), __get_str(state),
		      __get_str(why))
);

/*
 * Memory the card was given, let go of: freed, as the card cannot reach it
 * any more, or parked until it cannot (qaic_owner.c).
 */
TRACE_EVENT(qaic_card_memory,
	    TP_PROTO(struct qaic_device *qdev, const char *action, const char *what, u64 bytes),
	    TP_ARGS(qdev, action, what, bytes),
	    TP_STRUCT__entry(__string(dev, dev_name(qdev->drm.dev))
			     __string(action, action)
			     __string(what, what)
			     __field(u64, bytes)),
	    TP_fast_assign(__assign_str(dev);
			   __assign_str(action);
			   __assign_str(what);
			   __entry->bytes = bytes;),
	    TP_printk("dev=%s action=%s what=%s bytes=%llu", __get_str(dev),
		      __get_str(action), __get_str(what), __entry->bytes)
);

#endif /* _QAIC_TRACE_H_ */

/* Outside the guard: define_trace.h reads this header again. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#include <trace/define_trace.h>
