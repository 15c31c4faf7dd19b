/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef IGT_QAIC_H
#define IGT_QAIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef QAIC_IGT_CORE_ABI
#include "igt_core_abi.h"
#else
#include "igt.h"
#endif

#include "qaic_accel.h"

bool is_qaic_device(int fd);
bool igt_qaic_driver_is_ours(int fd);
int igt_qaic_uevent_open(void);
char *igt_qaic_read_bootlog(const char *bdf, size_t max, size_t *len);
void igt_qaic_require_ours(int fd, bool has, const char *why);

int __igt_qaic_open(void);
int igt_qaic_open(void);

int __igt_qaic_create_bo(int fd, uint64_t size, uint32_t *handle);
uint32_t igt_qaic_create_bo(int fd, uint64_t size);

int __igt_qaic_mmap_bo(int fd, uint32_t handle, uint64_t *offset);
void *igt_qaic_mmap_bo(int fd, uint32_t handle, uint64_t size,
		       unsigned int prot);
void igt_qaic_munmap(void *ptr, uint64_t size);
void igt_qaic_close(int fd);
void igt_qaic_assert_dbcs_free(void);
void igt_qaic_dbcs_free_checks(void);
void igt_qaic_tool_path(const char *name, char *path, size_t len);

/**
 * struct igt_qaic_msg:
 * @len: bytes of transactions at @buf
 * @count: number of transactions at @buf
 * @buf: the transactions; the answer of the device replaces them
 *
 * A DRM_IOCTL_QAIC_MANAGE message being built with igt_qaic_msg_*(), then
 * the answer __igt_qaic_manage() got for it. @buf holds the largest message
 * the uapi allows, and the answer can be longer than the request.
 */
struct igt_qaic_msg {
	uint32_t len;
	uint32_t count;
	uint8_t buf[QAIC_MANAGE_MAX_MSG_LENGTH] __attribute__((aligned(8)));
};

void igt_qaic_msg_init(struct igt_qaic_msg *msg);
void *igt_qaic_msg_append(struct igt_qaic_msg *msg, uint32_t type,
			  uint32_t len);
void *igt_qaic_msg_passthrough(struct igt_qaic_msg *msg, const void *data,
			       uint32_t size);
void *igt_qaic_msg_dma_xfer(struct igt_qaic_msg *msg, uint32_t tag,
			    uint64_t addr, uint64_t size);
void *igt_qaic_msg_activate(struct igt_qaic_msg *msg, uint32_t queue_size,
			    uint32_t options);
void *igt_qaic_msg_deactivate(struct igt_qaic_msg *msg, uint32_t dbc_id);
void *igt_qaic_msg_status(struct igt_qaic_msg *msg);
const void *igt_qaic_msg_answer(const struct igt_qaic_msg *msg,
				uint32_t index, uint32_t type, uint32_t len);

int __igt_qaic_manage(int fd, struct igt_qaic_msg *msg);
void igt_qaic_manage(int fd, struct igt_qaic_msg *msg);

int __igt_qaic_activate(int fd, uint32_t queue_size, uint32_t *dbc_id);
uint32_t igt_qaic_activate(int fd, uint32_t queue_size);
int __igt_qaic_deactivate(int fd, uint32_t dbc_id);
void igt_qaic_deactivate(int fd, uint32_t dbc_id);
int __igt_qaic_release_dbc(int fd, uint32_t dbc_id, struct igt_qaic_msg *msg);
void igt_qaic_check_released(const struct igt_qaic_msg *msg, uint32_t dbc_id);
void igt_qaic_release_dbc(int fd, uint32_t dbc_id);
int __igt_qaic_status(int fd, struct qaic_manage_trans_status_from_dev *status);
void igt_qaic_status(int fd, struct qaic_manage_trans_status_from_dev *status);
int __igt_qaic_dma_xfer(int fd, uint32_t tag, const void *ptr, uint64_t size);
void igt_qaic_dma_xfer(int fd, uint32_t tag, const void *ptr, uint64_t size);

uint32_t igt_qaic_crc32(uint32_t crc, const void *buf, size_t len);

const char *igt_qaic_err_name(int err);
void *igt_qaic_unmapped_ptr(void);

/* DMA directions of qaic_attach_slice_hdr.dir and qaic_execute_entry.dir */
#define IGT_QAIC_DIR_TO_DEV	1
#define IGT_QAIC_DIR_FROM_DEV	2

/* DMA Bridge Channels of an AIC100, and their semaphores */
#define IGT_QAIC_NUM_DBC	16
#define IGT_QAIC_NUM_SEM	32
#define IGT_QAIC_SEM_MAX	0xfff

/* Device memory behind the DMA Bridge of the emulated card */
#define IGT_QAIC_DEV_MEM_SIZE	(256ull << 20)

/* Most entries EXECUTE_BO and PARTIAL_EXECUTE_BO take in one call */
#define IGT_QAIC_MAX_EXEC_COUNT	1024

/*
 * The shortest WAIT_BO, for a look that must not block: a timeout of 0
 * means the kernel's default wait (wait_exec_default_timeout_ms, 5000 ms),
 * as Linux 7.x and Qualcomm's open runtime have it.
 */
#define IGT_QAIC_WAIT_LOOK_MS	1

/* Default of the job_timeout_ms module parameter */
#define IGT_QAIC_JOB_TIMEOUT_MS	2000

/*
 * Passthrough requests of the emulated card's manager that the data-path
 * tests use (tests/emu/manager.h, tests/emu/manual.rst).
 * The payload is struct igt_qaic_emu_req, little endian.
 */
/* The emulator's own request n: above every firmware NNC command type */
#define IGT_QAIC_EMU_PT_OP(n)	(0x51450000u + (n))
#define IGT_QAIC_EMU_PT_DEACTIVATE	IGT_QAIC_EMU_PT_OP(4)	/* release DBC arg, as firmware does */
#define IGT_QAIC_EMU_PT_HANG_DBC	IGT_QAIC_EMU_PT_OP(5)	/* arm a one-shot hang of DBC arg */
#define IGT_QAIC_EMU_PT_DBC_COUNTERS	IGT_QAIC_EMU_PT_OP(6)	/* counters of DBC arg */
#define IGT_QAIC_EMU_PT_DBC_FAULTS	IGT_QAIC_EMU_PT_OP(8)	/* response faults of DBC arg */
#define IGT_QAIC_EMU_PT_SYS_ERROR	IGT_QAIC_EMU_PT_OP(9)	/* the card crashes in arg ms */
#define IGT_QAIC_EMU_PT_VANISH		IGT_QAIC_EMU_PT_OP(10)	/* the card goes away in arg ms */
#define IGT_QAIC_EMU_PT_SILENCE		IGT_QAIC_EMU_PT_OP(11)	/* the manager goes silent */
#define IGT_QAIC_EMU_PT_SSR		IGT_QAIC_EMU_PT_OP(12)	/* DBC arg's subsystem restarts */
#define IGT_QAIC_EMU_PT_TIMESYNC	IGT_QAIC_EMU_PT_OP(13)	/* the time syncs the card saw */
#define IGT_QAIC_EMU_PT_RAS		IGT_QAIC_EMU_PT_OP(14)	/* a RAS report from source arg */
#define IGT_QAIC_EMU_PT_DBC_TIMING	IGT_QAIC_EMU_PT_OP(17)	/* DBC arg's device time */
#define IGT_QAIC_EMU_PT_CARD_CASE	IGT_QAIC_EMU_PT_OP(18)	/* a systematic case, arg its index */
#define IGT_QAIC_EMU_PT_ANSWER_DELAY	IGT_QAIC_EMU_PT_OP(19)	/* later answers arg ms late */
/* QAIC_TELEMETRY's fault mode: arg an IGT_QAIC_EMU_TELEMETRY_* below */
#define IGT_QAIC_EMU_PT_TELEMETRY	IGT_QAIC_EMU_PT_OP(20)

/* How the emulated card answers telemetry questions (EMU_PT_TELEMETRY) */
#define IGT_QAIC_EMU_TELEMETRY_NORMAL	0
#define IGT_QAIC_EMU_TELEMETRY_SILENT	1	/* drops every question */
#define IGT_QAIC_EMU_TELEMETRY_GARBAGE	2	/* 23 bytes with a wrong magic */
#define IGT_QAIC_EMU_TELEMETRY_LATE	3	/* each answer 3 s late */
#define IGT_QAIC_EMU_TELEMETRY_ERROR	4	/* status -3, an error while processing */
#define IGT_QAIC_EMU_TELEMETRY_WRONG_SEQ 5	/* the answer's sequence number is off by one */
#define IGT_QAIC_EMU_TELEMETRY_ABSURD	6	/* SoC 100000 C, power -5 W */
#define IGT_QAIC_EMU_TELEMETRY_SHORT	7	/* 12 bytes */

/* The tables of EMU_PT_CARD_CASE (the emulator's enum emu_card_case_table) */
#define IGT_QAIC_EMU_CASE_SSR		0	/* tests/emu/ssr_cases.c */
#define IGT_QAIC_EMU_CASE_RAS		1	/* tests/emu/ras_cases.c */
#define IGT_QAIC_EMU_CASE_TIMESYNC	2	/* tests/emu/timesync_cases.c */
#define IGT_QAIC_EMU_CASE_BOOTLOG	3	/* tests/emu/bootlog_cases.c */
#define IGT_QAIC_EMU_CASE_DBC		4	/* tests/emu/dbc_cases.c */
#define IGT_QAIC_EMU_CASE_NNC		5	/* tests/emu/nnc_cases.c */
#define IGT_QAIC_EMU_CASE_BHI		6	/* tests/emu/bhi_cases.c */
#define IGT_QAIC_EMU_CASE_MHI		7	/* tests/emu/mhi_cases.c */

/* How an EMU_PT_SSR restart goes (the emulator's enum emu_ssr_mode) */
#define IGT_QAIC_EMU_SSR_NORMAL		0
#define IGT_QAIC_EMU_SSR_STALL		1	/* holds after AFTER_SHUTDOWN */
#define IGT_QAIC_EMU_SSR_GARBAGE	2	/* malformed messages first */
#define IGT_QAIC_EMU_SSR_RESUME		3	/* a stalled restart goes on */
#define IGT_QAIC_EMU_SSR_FLOOD		4	/* NORMAL, many times in a row */
#define IGT_QAIC_EMU_SSR_DUMP		5	/* NORMAL, offering a crash dump */
/* IGT_QAIC_EMU_SSR_DUMP with one fault (qaic-emu's ssr.h) */
#define IGT_QAIC_EMU_SSR_DUMP_BAD_LENGTH	6	/* table: its entries and 8 bytes */
#define IGT_QAIC_EMU_SSR_DUMP_TOO_MANY	7	/* table of 300 entries */
#define IGT_QAIC_EMU_SSR_DUMP_HUGE	8	/* first region 1 GiB */
#define IGT_QAIC_EMU_SSR_DUMP_SHORT_READ	9	/* second region read a byte short */
#define IGT_QAIC_EMU_SSR_DUMP_LONG_READ	10	/* ... a byte long */
#define IGT_QAIC_EMU_SSR_DUMP_DONE_FAILS	11	/* DEBUG_XFER_DONE_RSP status 1 */
#define IGT_QAIC_EMU_SSR_DUMP_EMPTY_REGION	12	/* second region 0 bytes */
#define IGT_QAIC_EMU_SSR_DUMP_WRAPPING_REGION	13	/* third region's end past 2^64 */
/* IGT_QAIC_EMU_SSR_DUMP out of order */
#define IGT_QAIC_EMU_SSR_DUMP_OFFER_TWICE	14	/* offered again once taken */
#define IGT_QAIC_EMU_SSR_DUMP_LATE_ANSWER	15	/* a read's answer after the end */
#define IGT_QAIC_EMU_SSR_DUMP_CUT_SHORT	16	/* AFTER_POWER_UP mid-dump */
#define IGT_QAIC_EMU_SSR_DUMP_STALL	17	/* no region read answered */
#define IGT_QAIC_EMU_SSR_MAX_CYCLES	100000

#define IGT_QAIC_EMU_PT_OK		0
#define IGT_QAIC_EMU_PT_E_UNKNOWN_OP	2	/* an emulator without the op */
#define IGT_QAIC_EMU_PT_E_DBC		5	/* no such DBC, or not active */
#define IGT_QAIC_EMU_PT_E_RANGE		7	/* no such case, or out of range */

struct igt_qaic_emu_req {
	uint32_t op;
	uint32_t arg;
};

/* Answer of EMU_PT_HANG_DBC, and of any request the manager refused */
struct igt_qaic_emu_status {
	uint32_t op;
	uint32_t arg;
	uint32_t status;
	uint32_t pad;
};

/* Answer of EMU_PT_DBC_COUNTERS, 136 bytes */
struct igt_qaic_emu_counters {
	uint32_t op;
	uint32_t arg;
	uint32_t status;
	uint32_t pad;
	uint64_t reg_reads[4];		/* REQHP, REQTP, RSPHP, RSPTP */
	uint64_t reg_writes[4];
	uint64_t requests;		/* requests consumed */
	uint64_t responses;		/* responses written */
	uint64_t dma_to_dev_bytes;	/* host -> device memory */
	uint64_t dma_from_dev_bytes;	/* device memory -> host */
	uint64_t irqs;
	uint64_t errors;		/* requests that failed */
	uint64_t resets;		/* channel resets that aborted a request */
	uint64_t late_xfers;		/* fetched requests carried out after a reset */
};

/* Answer of EMU_PT_TIMESYNC, 64 bytes */
struct igt_qaic_emu_timesync {
	uint32_t op;
	uint32_t arg;
	uint32_t status;
	uint32_t pad;
	uint64_t asked;			/* times the card asked, in SBL */
	uint64_t boot_good;		/* answers it found good */
	uint64_t boot_bad;
	uint64_t periodic_good;		/* periodic ones, in mission mode */
	uint64_t periodic_bad;
	int64_t last_skew_us;		/* host time - card time, last good */
};

/**
 * struct igt_qaic_bo:
 * @handle: GEM handle
 * @size: size in bytes, as created
 * @ptr: read/write mapping of the whole object
 *
 * A buffer object and its mapping, from igt_qaic_bo_create().
 */
struct igt_qaic_bo {
	uint32_t handle;
	uint64_t size;
	uint8_t *ptr;
};

int igt_qaic_open_dbc(uint32_t queue_size, uint32_t *dbc_id);

void igt_qaic_bo_create(int fd, uint64_t size, struct igt_qaic_bo *bo);
void igt_qaic_bo_destroy(int fd, struct igt_qaic_bo *bo);

void igt_qaic_fill_pattern(void *buf, size_t len, uint32_t seed);
void igt_qaic_assert_bytes(const void *got, const void *expected, size_t len,
			   const char *what);

struct qaic_sem igt_qaic_sem(uint8_t cmd, uint8_t index, uint16_t val,
			     bool presync);
void igt_qaic_slice_init(struct qaic_attach_slice_entry *entry,
			 uint64_t offset, uint64_t size, uint64_t dev_addr);
void igt_qaic_slice_doorbell(struct qaic_attach_slice_entry *entry,
			     uint64_t db_addr, uint32_t db_len,
			     uint32_t db_data);

int __igt_qaic_attach_slice(int fd, uint32_t handle, uint32_t dbc_id,
			    uint32_t dir,
			    const struct qaic_attach_slice_entry *entries,
			    uint32_t count);
void igt_qaic_attach_slice(int fd, uint32_t handle, uint32_t dbc_id,
			   uint32_t dir,
			   const struct qaic_attach_slice_entry *entries,
			   uint32_t count);
int __igt_qaic_attach_simple(int fd, uint32_t handle, uint32_t dbc_id,
			     uint32_t dir, uint64_t size, uint64_t dev_addr);
void igt_qaic_attach_simple(int fd, uint32_t handle, uint32_t dbc_id,
			    uint32_t dir, uint64_t size, uint64_t dev_addr);
int __igt_qaic_detach_slice(int fd, uint32_t handle);
void igt_qaic_detach_slice(int fd, uint32_t handle);

int __igt_qaic_execute(int fd, uint32_t dbc_id,
		       const struct qaic_execute_entry *entries,
		       uint32_t count);
void igt_qaic_execute(int fd, uint32_t dbc_id,
		      const struct qaic_execute_entry *entries,
		      uint32_t count);
int __igt_qaic_execute_bo(int fd, uint32_t dbc_id, uint32_t handle,
			  uint32_t dir);
void igt_qaic_execute_bo(int fd, uint32_t dbc_id, uint32_t handle,
			 uint32_t dir);
int __igt_qaic_partial_execute(int fd, uint32_t dbc_id,
			       const struct qaic_partial_execute_entry *entries,
			       uint32_t count);
void igt_qaic_partial_execute(int fd, uint32_t dbc_id,
			      const struct qaic_partial_execute_entry *entries,
			      uint32_t count);

int __igt_qaic_wait(int fd, uint32_t handle, uint32_t dbc_id,
		    uint32_t timeout_ms);
void igt_qaic_wait(int fd, uint32_t handle, uint32_t dbc_id,
		   uint32_t timeout_ms);

int __igt_qaic_perf_stats(int fd, uint32_t dbc_id,
			  struct qaic_perf_stats_entry *entries,
			  uint16_t count);
void igt_qaic_perf_stats(int fd, uint32_t dbc_id,
			 struct qaic_perf_stats_entry *entries,
			 uint16_t count);

void igt_qaic_write_dev(int fd, uint32_t dbc_id, uint64_t dev_addr,
			const void *buf, uint64_t size);
void igt_qaic_read_dev(int fd, uint32_t dbc_id, uint64_t dev_addr,
		       void *buf, uint64_t size);
void igt_qaic_round_trip(int fd, uint32_t dbc_id, uint64_t dev_addr,
			 uint64_t size, uint32_t seed);

void igt_qaic_stall_bo(int fd, uint32_t dbc_id, uint8_t sem_index,
		       struct igt_qaic_bo *bo);

void igt_qaic_write_file(const char *path, const char *val);
const char *igt_qaic_param_set(const char *name, const char *val);
void igt_qaic_param_put_back(const char *name);
void igt_qaic_param_restore(void);
int igt_qaic_read_int(const char *path);
void igt_qaic_card_bdf(int fd, char *bdf, size_t len);
bool igt_qaic_card_addr(unsigned int n, char *bdf, size_t len);
int igt_qaic_open_bdf(const char *bdf);
uint32_t igt_qaic_job_timeout_ms(void);
int igt_qaic_module_refcount(void);
uint64_t igt_qaic_now_ms(void);

/* What EMU_PT_DBC_FAULTS sets; 0 turns a fault off. */
struct igt_qaic_dbc_faults {
	uint32_t drop_every;	/* drop every this many-th response */
	uint32_t corrupt_every;	/* give every this many-th one corrupt_status */
	uint16_t corrupt_status;
	uint32_t reqhp_lag;	/* REQHP reads this many entries behind */
	uint32_t msi_off;	/* non-zero: no completion MSI reaches the host */
};

int __igt_qaic_emu_dbc_set_faults(int fd, uint32_t dbc_id,
				  const struct igt_qaic_dbc_faults *faults);
int __igt_qaic_emu_dbc_faults(int fd, uint32_t dbc_id, uint32_t drop_every,
			      uint32_t corrupt_every, uint16_t corrupt_status);
void igt_qaic_emu_dbc_faults(int fd, uint32_t dbc_id, uint32_t drop_every,
			     uint32_t corrupt_every, uint16_t corrupt_status);
int __igt_qaic_emu_hang_dbc(int fd, uint32_t dbc_id);
int __igt_qaic_emu_hang_dbc_late(int fd, uint32_t dbc_id, uint32_t late_ms);
int __igt_qaic_emu_sys_error(int fd, uint32_t ms);
int __igt_qaic_emu_vanish(int fd, uint32_t ms);
int __igt_qaic_emu_silence(int fd);
int __igt_qaic_emu_answer_delay(int fd, uint32_t ms);
int __igt_qaic_emu_telemetry(int fd, uint32_t mode);
void igt_qaic_emu_telemetry_reset(int sig);
int __igt_qaic_emu_ssr(int fd, uint32_t dbc_id, uint32_t mode);
int __igt_qaic_emu_ssr_flood(int fd, uint32_t dbc_id, uint32_t cycles);
int __igt_qaic_emu_ras(int fd, uint32_t source, uint32_t type, uint32_t flaw);
int __igt_qaic_emu_card_case(int fd, uint32_t table, uint32_t idx);
void igt_qaic_emu_hang_dbc(int fd, uint32_t dbc_id);
int __igt_qaic_emu_dbc_timing(int fd, uint32_t dbc_id, uint32_t req_ns);
void igt_qaic_emu_dbc_timing_reset(int sig);
int __igt_qaic_emu_dbc_counters(int fd, uint32_t dbc_id,
				struct igt_qaic_emu_counters *counters);
int __igt_qaic_emu_timesync(int fd, struct igt_qaic_emu_timesync *ts);

#endif /* IGT_QAIC_H */
