/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef QAIC_ACCEL_H_
#define QAIC_ACCEL_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DOC: qaic uapi overview
 *
 * The Cloud AI 100 is driven through nine ioctls whose numbers and struct
 * layouts are the ABI of the Linux 6.12 qaic driver, so userspace written
 * for that driver runs unchanged. New capabilities are appended after
 * %DRM_QAIC_DETACH_SLICE_BO as new ioctl numbers or new flags; existing
 * layouts never change.
 *
 * Every field documented "Must be 0" is checked: a non-zero value makes the
 * ioctl fail with -EINVAL, so the field can be given a meaning later.
 *
 * The flow of a workload is: MANAGE (activate a DMA Bridge Channel, load the
 * network through DMA transfer transactions), CREATE_BO and MMAP_BO for the
 * input/output buffers, ATTACH_SLICE_BO to describe how a buffer is split
 * into DMA requests, EXECUTE_BO to queue the buffers on the channel, and
 * WAIT_BO until the device is done with them.
 */

/*
 * Largest MANAGE message, in bytes, counting the whole encoded message the
 * user passes (not only the transactions). Spelled as a number: SZ_4K is not
 * visible to userspace.
 */
#define QAIC_MANAGE_MAX_MSG_LENGTH	4096

/* Semaphore flags, qaic_sem.flags */
#define QAIC_SEM_INSYNCFENCE	2
#define QAIC_SEM_OUTSYNCFENCE	1

/* Semaphore commands, qaic_sem.cmd */
#define QAIC_SEM_NOP		0
#define QAIC_SEM_INIT		1
#define QAIC_SEM_INC		2
#define QAIC_SEM_DEC		3
#define QAIC_SEM_WAIT_EQUAL	4
#define QAIC_SEM_WAIT_GT_EQ	5 /* value >= sem.val */
#define QAIC_SEM_WAIT_GT_0	6 /* value > 0 */

/*
 * Transaction types of a MANAGE message, qaic_manage_trans_hdr.type.
 * FROM_USR types are what userspace may put in a request. The answer carries
 * the FROM_DEV types (passthrough, activate, status), as with Linux 6.12.
 * The other types name the device's wire format or are unused, and are
 * refused in a request.
 */
#define QAIC_TRANS_UNDEFINED			0
#define QAIC_TRANS_PASSTHROUGH_FROM_USR		1
#define QAIC_TRANS_PASSTHROUGH_TO_USR		2
#define QAIC_TRANS_PASSTHROUGH_FROM_DEV		3
#define QAIC_TRANS_PASSTHROUGH_TO_DEV		4
#define QAIC_TRANS_DMA_XFER_FROM_USR		5
#define QAIC_TRANS_DMA_XFER_TO_DEV		6
#define QAIC_TRANS_ACTIVATE_FROM_USR		7
#define QAIC_TRANS_ACTIVATE_FROM_DEV		8
#define QAIC_TRANS_ACTIVATE_TO_DEV		9
#define QAIC_TRANS_DEACTIVATE_FROM_USR		10
#define QAIC_TRANS_DEACTIVATE_FROM_DEV		11
#define QAIC_TRANS_STATUS_FROM_USR		12
#define QAIC_TRANS_STATUS_TO_USR		13
#define QAIC_TRANS_STATUS_FROM_DEV		14
#define QAIC_TRANS_STATUS_TO_DEV		15
#define QAIC_TRANS_TERMINATE_FROM_DEV		16
#define QAIC_TRANS_TERMINATE_TO_DEV		17
#define QAIC_TRANS_DMA_XFER_CONT		18
#define QAIC_TRANS_VALIDATE_PARTITION_FROM_DEV	19
#define QAIC_TRANS_VALIDATE_PARTITION_TO_DEV	20

/**
 * struct qaic_manage_trans_hdr - Header that starts every transaction.
 * @type: In/Out. One of the QAIC_TRANS_* values.
 * @len: In/Out. Length of the whole transaction in bytes, this header
 *	 included. Never smaller than the header.
 */
struct qaic_manage_trans_hdr {
	__u32 type;
	__u32 len;
};

/**
 * struct qaic_manage_trans_passthrough - Opaque request for the card's
 * manager, answered by an opaque response.
 * @hdr: In/Out. Header; type is %QAIC_TRANS_PASSTHROUGH_FROM_USR in a
 *	 request and %QAIC_TRANS_PASSTHROUGH_FROM_DEV in the answer.
 * @data: In/Out. Payload, hdr.len - sizeof(hdr) bytes.
 */
struct qaic_manage_trans_passthrough {
	struct qaic_manage_trans_hdr hdr;
	__u8 data[];
};

/**
 * struct qaic_manage_trans_dma_xfer - Ask the device to copy a user buffer
 * into device memory.
 * @hdr: In. Header; type is %QAIC_TRANS_DMA_XFER_FROM_USR.
 * @tag: In. Identifies the destination to the device's manager.
 * @pad: Must be 0.
 * @addr: In. User virtual address of the source buffer.
 * @size: In. Length of the source buffer in bytes. Not 0; addr + size must
 *	  not wrap.
 */
struct qaic_manage_trans_dma_xfer {
	struct qaic_manage_trans_hdr hdr;
	__u32 tag;
	__u32 pad;
	__u64 addr;
	__u64 size;
};

/**
 * struct qaic_manage_trans_activate_to_dev - Ask for a DMA Bridge Channel.
 * @hdr: In. Header; type is %QAIC_TRANS_ACTIVATE_FROM_USR.
 * @queue_size: In. Number of request ring entries, 1 to 65536. The
 *		response ring has as many. Both rings are one block of
 *		coherent DMA memory, 68 bytes an entry and 256 more: on a
 *		host without an IOMMU, where the page allocator's largest
 *		block is 4 MiB (x86), more than 61680 entries fail with
 *		-ENOMEM.
 * @eventfd: Ignored; kept for layout.
 * @options: In. Passed to the device unchanged.
 * @pad: Must be 0.
 */
struct qaic_manage_trans_activate_to_dev {
	struct qaic_manage_trans_hdr hdr;
	__u32 queue_size;
	__u32 eventfd;
	__u32 options;
	__u32 pad;
};

/**
 * struct qaic_manage_trans_activate_from_dev - Answer to an activate.
 * @hdr: Out. Header; type is %QAIC_TRANS_ACTIVATE_FROM_DEV.
 * @status: Out. 0 on success, else the device's error code.
 * @dbc_id: Out. The DMA Bridge Channel now owned by the caller's file.
 * @options: Out. Options the device accepted.
 */
struct qaic_manage_trans_activate_from_dev {
	struct qaic_manage_trans_hdr hdr;
	__u32 status;
	__u32 dbc_id;
	__u64 options;
};

/**
 * struct qaic_manage_trans_deactivate - Give a DMA Bridge Channel back.
 * @hdr: In. Header; type is %QAIC_TRANS_DEACTIVATE_FROM_USR.
 * @dbc_id: In. A channel activated through the same file.
 * @pad: Must be 0.
 */
struct qaic_manage_trans_deactivate {
	struct qaic_manage_trans_hdr hdr;
	__u32 dbc_id;
	__u32 pad;
};

/**
 * struct qaic_manage_trans_status_to_dev - Ask for the device's status.
 * @hdr: In. Header; type is %QAIC_TRANS_STATUS_FROM_USR.
 */
struct qaic_manage_trans_status_to_dev {
	struct qaic_manage_trans_hdr hdr;
};

/**
 * struct qaic_manage_trans_status_from_dev - The device's status.
 * @hdr: Out. Header; type is %QAIC_TRANS_STATUS_FROM_DEV.
 * @major: Out. Control protocol major version the device speaks.
 * @minor: Out. Control protocol minor version the device speaks.
 * @status: Out. 0 on success, else the device's error code.
 * @status_flags: Out. Bit 0: the device checks message CRCs.
 */
struct qaic_manage_trans_status_from_dev {
	struct qaic_manage_trans_hdr hdr;
	__u16 major;
	__u16 minor;
	__u32 status;
	__u64 status_flags;
};

/**
 * struct qaic_manage_msg - A request for the card's manager, and its answer.
 * @len: In/Out. Bytes of transactions at @data. In: not more than
 *	 %QAIC_MANAGE_MAX_MSG_LENGTH less this struct's count and len fields.
 *	 Out: bytes of the answer, which may be more than went in (a status
 *	 request's answer is longer than the request).
 * @count: In/Out. Number of transactions at @data. Not 0.
 * @data: In. User pointer to @len bytes of transactions, each starting with
 *	  a struct qaic_manage_trans_hdr; the answer overwrites them. The
 *	  buffer must have room for the longest answer, as with Linux's qaic
 *	  since 6.4: %QAIC_MANAGE_MAX_MSG_LENGTH less this struct's count and
 *	  len fields, whatever @len was.
 */
struct qaic_manage_msg {
	__u32 len;
	__u32 count;
	__u64 data;
};

/**
 * struct qaic_create_bo - Create a buffer object.
 * @size: In. Size in bytes, rounded up to the page size. Not 0 (-EINVAL);
 *	  not more than the RAM of the machine (-ENOMEM).
 * @handle: Out. GEM handle of the new object, valid in this file only.
 * @pad: Must be 0.
 */
struct qaic_create_bo {
	__u64 size;
	__u32 handle;
	__u32 pad;
};

/**
 * struct qaic_mmap_bo - Get the offset to mmap() a buffer object at.
 * @handle: In. GEM handle.
 * @pad: Must be 0.
 * @offset: Out. Offset to pass to mmap() on the same file descriptor.
 */
struct qaic_mmap_bo {
	__u32 handle;
	__u32 pad;
	__u64 offset;
};

/**
 * struct qaic_sem - A semaphore operation run around one DMA request.
 * @val: In. Operand; only the low 12 bits are used by the device.
 * @index: In. Semaphore number; only the low 5 bits are used.
 * @presync: In. 1: run the operation before the transfer; 0: after it.
 * @cmd: In. One of the QAIC_SEM_* commands.
 * @flags: In. QAIC_SEM_INSYNCFENCE and/or QAIC_SEM_OUTSYNCFENCE.
 * @pad: Must be 0.
 */
struct qaic_sem {
	__u16 val;
	__u8  index;
	__u8  presync;
	__u8  cmd;
	__u8  flags;
	__u16 pad;
};

/**
 * struct qaic_attach_slice_entry - One slice of a buffer object.
 * @size: In. Bytes of the slice.
 * @sem0: In. First semaphore operation.
 * @sem1: In. Second semaphore operation.
 * @sem2: In. Third semaphore operation.
 * @sem3: In. Fourth semaphore operation.
 * @dev_addr: In. Device address the slice is transferred to or from.
 * @db_addr: In. Device address of the doorbell written after the transfer,
 *	     or 0 for none.
 * @db_data: In. Value written to the doorbell.
 * @db_len: In. Doorbell write width in bits: 32, 16 or 8; 0 for none.
 * @offset: In. Offset of the slice in the buffer object. offset + size must
 *	    not wrap nor pass the end of the object.
 */
struct qaic_attach_slice_entry {
	__u64 size;
	struct qaic_sem	sem0;
	struct qaic_sem	sem1;
	struct qaic_sem	sem2;
	struct qaic_sem	sem3;
	__u64 dev_addr;
	__u64 db_addr;
	__u32 db_data;
	__u32 db_len;
	__u64 offset;
};

/**
 * struct qaic_attach_slice_hdr - Which buffer object is sliced, and how.
 * @count: In. Number of struct qaic_attach_slice_entry. Not 0.
 * @dbc_id: In. DMA Bridge Channel the object will be executed on.
 * @handle: In. GEM handle of an object that has no slices yet.
 * @dir: In. DMA direction: 1 to the device, 2 from the device.
 * @size: Ignored, for compatibility: the object's own size is used.
 */
struct qaic_attach_slice_hdr {
	__u32 count;
	__u32 dbc_id;
	__u32 handle;
	__u32 dir;
	__u64 size;
};

/**
 * struct qaic_attach_slice - Argument of ATTACH_SLICE_BO.
 * @hdr: In. The object and its slice count.
 * @data: In. User pointer to hdr.count struct qaic_attach_slice_entry.
 */
struct qaic_attach_slice {
	struct qaic_attach_slice_hdr hdr;
	__u64 data;
};

/**
 * struct qaic_execute_entry - A buffer object to queue.
 * @handle: In. GEM handle of a sliced object.
 * @dir: In. Direction, as given at attach.
 */
struct qaic_execute_entry {
	__u32 handle;
	__u32 dir;
};

/**
 * struct qaic_partial_execute_entry - A buffer object to queue, shortened.
 * @handle: In. GEM handle of a sliced object.
 * @dir: In. Direction, as given at attach.
 * @resize: In. Bytes to transfer, from the start of the object; not more
 *	    than its size. 0 transfers nothing. The slice the cut falls in is
 *	    shortened; slices past it transfer nothing but still run their
 *	    semaphores and doorbell.
 */
struct qaic_partial_execute_entry {
	__u32 handle;
	__u32 dir;
	__u64 resize;
};

/**
 * struct qaic_execute_hdr - Where to queue.
 * @count: In. Number of entries. Not 0.
 * @dbc_id: In. DMA Bridge Channel owned by this file.
 */
struct qaic_execute_hdr {
	__u32 count;
	__u32 dbc_id;
};

/**
 * struct qaic_execute - Argument of EXECUTE_BO and PARTIAL_EXECUTE_BO.
 * @hdr: In. Channel and entry count.
 * @data: In. User pointer to hdr.count struct qaic_execute_entry
 *	  (EXECUTE_BO) or struct qaic_partial_execute_entry
 *	  (PARTIAL_EXECUTE_BO).
 */
struct qaic_execute {
	struct qaic_execute_hdr hdr;
	__u64 data;
};

/**
 * struct qaic_wait - Wait until the device is done with a buffer object.
 * @handle: In. GEM handle.
 * @timeout: In. Milliseconds to wait; 0: the kernel's default
 *	     (the wait_exec_default_timeout_ms module parameter, 5000).
 * @dbc_id: In. DMA Bridge Channel the object was queued on.
 * @pad: Must be 0.
 */
struct qaic_wait {
	__u32 handle;
	__u32 timeout;
	__u32 dbc_id;
	__u32 pad;
};

/**
 * struct qaic_perf_stats_hdr - Which channel to read statistics of.
 * @count: In. Number of entries. Not 0.
 * @pad: Must be 0.
 * @dbc_id: In. DMA Bridge Channel.
 */
struct qaic_perf_stats_hdr {
	__u16 count;
	__u16 pad;
	__u32 dbc_id;
};

/**
 * struct qaic_perf_stats - Argument of PERF_STATS_BO.
 * @hdr: In. Channel and entry count.
 * @data: In. User pointer to hdr.count struct qaic_perf_stats_entry.
 */
struct qaic_perf_stats {
	struct qaic_perf_stats_hdr hdr;
	__u64 data;
};

/**
 * struct qaic_perf_stats_entry - Timing of the last execution of an object.
 * @handle: In. GEM handle.
 * @queue_level_before: Out. Requests queued ahead of this object.
 * @num_queue_element: Out. Requests this object took.
 * @submit_latency_us: Out. Microseconds from the ioctl to the doorbell.
 * @device_latency_us: Out. Microseconds from the doorbell to completion.
 * @pad: Must be 0.
 */
struct qaic_perf_stats_entry {
	__u32 handle;
	__u32 queue_level_before;
	__u32 num_queue_element;
	__u32 submit_latency_us;
	__u32 device_latency_us;
	__u32 pad;
};

/**
 * struct qaic_detach_slice - Drop the slices of a buffer object.
 * @handle: In. GEM handle of a sliced object with no work queued.
 * @pad: Must be 0.
 */
struct qaic_detach_slice {
	__u32 handle;
	__u32 pad;
};

/**
 * QAIC_SYNC_WAIT_FOR_SUBMIT - In-sync flag: wait until the point has a fence.
 *
 * Without it, an in-sync whose point was not submitted yet fails the
 * submission with -EINVAL. With it, SUBMIT waits for the point to be
 * submitted (wait-before-signal), for up to the kernel's syncobj limit,
 * then fails with -ETIME.
 */
#define QAIC_SYNC_WAIT_FOR_SUBMIT	0x1

/**
 * struct qaic_sync - A DRM syncobj point a submission waits for or signals.
 * @handle: In. Syncobj handle (DRM_IOCTL_SYNCOBJ_CREATE).
 * @flags: In. For an in-sync, QAIC_SYNC_WAIT_FOR_SUBMIT or 0; for the
 *	   out-sync, 0.
 * @point: In. Timeline point, or 0 for a binary syncobj. The out-sync's
 *	   point gets a new fence; a binary out-sync's fence is replaced.
 */
struct qaic_sync {
	__u32 handle;
	__u32 flags;
	__u64 point;
};

/**
 * QAIC_SUBMIT_PARTIAL - Submit flag: @data holds partial execute entries.
 */
#define QAIC_SUBMIT_PARTIAL		0x1

/**
 * struct qaic_submit - Argument of SUBMIT: execute with explicit fences.
 * @hdr: In. Channel and entry count, as for EXECUTE_BO.
 * @data: In. User pointer to hdr.count struct qaic_execute_entry, or
 *	  struct qaic_partial_execute_entry with QAIC_SUBMIT_PARTIAL.
 * @in_syncs: In. User pointer to @in_sync_count struct qaic_sync the
 *	      entries wait for, besides the implicit fences of their objects.
 * @in_sync_count: In. At most 64.
 * @flags: In. QAIC_SUBMIT_PARTIAL or 0.
 * @out_sync: In. Signalled when the last entry completes; handle 0 for
 *	      none.
 * @reserved: Must be 0.
 *
 * SUBMIT queues like EXECUTE_BO (the same rules and errors), and then
 * attaches the fence of the last entry to @out_sync. The fence reports
 * the error of a failed entry as WAIT_BO does.
 */
struct qaic_submit {
	struct qaic_execute_hdr hdr;
	__u64 data;
	__u64 in_syncs;
	__u32 in_sync_count;
	__u32 flags;
	struct qaic_sync out_sync;
	__u64 reserved;
};

#define DRM_QAIC_MANAGE				0x00
#define DRM_QAIC_CREATE_BO			0x01
#define DRM_QAIC_MMAP_BO			0x02
#define DRM_QAIC_ATTACH_SLICE_BO		0x03
#define DRM_QAIC_EXECUTE_BO			0x04
#define DRM_QAIC_PARTIAL_EXECUTE_BO		0x05
#define DRM_QAIC_WAIT_BO			0x06
#define DRM_QAIC_PERF_STATS_BO			0x07
#define DRM_QAIC_DETACH_SLICE_BO		0x08
/* New ioctls go here, after the ones shared with Linux 6.12. */
#define DRM_QAIC_SUBMIT				0x09

#define DRM_IOCTL_QAIC_MANAGE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_QAIC_MANAGE, struct qaic_manage_msg)
#define DRM_IOCTL_QAIC_CREATE_BO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_QAIC_CREATE_BO, struct qaic_create_bo)
#define DRM_IOCTL_QAIC_MMAP_BO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_QAIC_MMAP_BO, struct qaic_mmap_bo)
#define DRM_IOCTL_QAIC_ATTACH_SLICE_BO \
	DRM_IOW(DRM_COMMAND_BASE + DRM_QAIC_ATTACH_SLICE_BO, struct qaic_attach_slice)
#define DRM_IOCTL_QAIC_EXECUTE_BO \
	DRM_IOW(DRM_COMMAND_BASE + DRM_QAIC_EXECUTE_BO, struct qaic_execute)
#define DRM_IOCTL_QAIC_PARTIAL_EXECUTE_BO \
	DRM_IOW(DRM_COMMAND_BASE + DRM_QAIC_PARTIAL_EXECUTE_BO, struct qaic_execute)
#define DRM_IOCTL_QAIC_WAIT_BO \
	DRM_IOW(DRM_COMMAND_BASE + DRM_QAIC_WAIT_BO, struct qaic_wait)
#define DRM_IOCTL_QAIC_PERF_STATS_BO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_QAIC_PERF_STATS_BO, struct qaic_perf_stats)
#define DRM_IOCTL_QAIC_DETACH_SLICE_BO \
	DRM_IOW(DRM_COMMAND_BASE + DRM_QAIC_DETACH_SLICE_BO, struct qaic_detach_slice)
#define DRM_IOCTL_QAIC_SUBMIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_QAIC_SUBMIT, struct qaic_submit)

#if defined(__cplusplus)
}
#endif

#endif /* QAIC_ACCEL_H_ */
