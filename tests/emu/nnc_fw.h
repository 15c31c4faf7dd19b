/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The firmware's NNC command protocol: the commands that Qualcomm's open
 * runtime (github quic/software-kit-for-qualcomm-cloud-ai-100) puts in
 * PASSTHROUGH transactions, and the card's manager (QSM) answers in one
 * PASSTHROUGH transaction back. The kernel carries them and never looks
 * inside.
 *
 * A command starts with a u32 type below EMU_NNC_FW_CMD_MAX; the
 * emulator's own test requests (EMU_PT_*, manager.h) start at EMU_PT_BASE,
 * far above, so the two never meet. Every layout here is little endian and
 * packed, as the runtime declares it (lib/runtime-platform/inc/
 * QNncProtocol.h, QAicHostApiInfo.h); offsets are restated in nnc_fw.c.
 *
 * The card answers STATUS_REQ, the program lifecycle (LOAD_ELF,
 * LOAD_CONSTANTS, LOAD_CONSTANTS_EX and _PAYLOAD, ACTIVATE, DEACTIVATE,
 * UNLOAD_ELF, UNLOAD_CONSTANTS), ACTIVATE_STATE_CMD, RESOURCE_INFO and
 * PERFORMANCE_INFO. Every other command gets an answer of type 0 with
 * status NNC_FW_UNDEFINED_REQUEST: the card says it does not do that,
 * rather than leaving the host waiting.
 *
 * The firmware keeps the programs, constants and activations of each host
 * handle (struct emu_nnc_fw, created by the manager). A load's bytes come
 * from the DMA transfer of the same message, an activation's virtual
 * channel from the ACTIVATE transaction of the same message; both come
 * after the command in the message, so the answer to such a command is
 * completed at the end of the request (emu_nnc_fw_complete()), by the
 * manager, which knows the message.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_NNC_FW_H
#define QAIC_EMU_NNC_FW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct emu_card;

/* Command types (QNncProtocol.h, enum nnc_command_type) */
#define NNC_FW_CMD_UNDEFINED		0
#define NNC_FW_CMD_LOAD_CONSTANTS_REQ	1
#define NNC_FW_CMD_LOAD_CONSTANTS_RESP	2
#define NNC_FW_CMD_LOAD_ELF_REQ		3
#define NNC_FW_CMD_LOAD_ELF_RESP	4
#define NNC_FW_CMD_UNLOAD_CONSTANTS_REQ	5
#define NNC_FW_CMD_UNLOAD_CONSTANTS_RESP 6
#define NNC_FW_CMD_UNLOAD_ELF_REQ	7
#define NNC_FW_CMD_UNLOAD_ELF_RESP	8
#define NNC_FW_CMD_ACTIVATE_REQ		9
#define NNC_FW_CMD_ACTIVATE_RESP	10
#define NNC_FW_CMD_DEACTIVATE_REQ	11
#define NNC_FW_CMD_DEACTIVATE_RESP	12
#define NNC_FW_CMD_STATUS_REQ		13
#define NNC_FW_CMD_STATUS_RESP		14
#define NNC_FW_CMD_LOAD_CONSTANTS_EX_REQ 15
#define NNC_FW_CMD_LOAD_CONSTANTS_PAYLOAD_REQ 16
#define NNC_FW_CMD_RESOURCE_INFO_REQ	32
#define NNC_FW_CMD_RESOURCE_INFO_RESP	33
#define NNC_FW_CMD_PERFORMANCE_INFO_REQ	34
#define NNC_FW_CMD_PERFORMANCE_INFO_RESP 35
#define NNC_FW_CMD_ACTIVATE_STATE_CMD_REQ 36
#define NNC_FW_CMD_ACTIVATE_STATE_CMD_RESP 37
#define EMU_NNC_FW_CMD_MAX		50	/* NNC_COMMAND_TYPE_MAX */

/* Status codes (enum nnc_status_code) the card answers with */
#define NNC_FW_SUCCESS			0
#define NNC_FW_ERROR			(-1)
#define NNC_FW_DMA_ERROR		(-2)
#define NNC_FW_UNDEFINED_REQUEST	(-3)
#define NNC_FW_MEM_ALLOC_ERROR		(-4)
#define NNC_FW_METADATA_ERROR		(-5)
#define NNC_FW_PARAMETER_ERROR		(-6)
#define NNC_FW_OPERATION_NOT_PERMITTED	(-9)
#define NNC_FW_RESOURCE_NOT_FOUND	(-11)
#define NNC_FW_NSP_ALLOC_ERROR		(-13)
#define NNC_FW_VC_ALLOC_ERROR		(-14)
#define NNC_FW_CMD_LENGTH_ERROR		(-17)
#define NNC_FW_SWITCH_PARAM_ERROR	(-57)
#define NNC_FW_NO_NW_TO_DEACTIVATE	(-116)

/* STATUS_REQ: type, info_type (u8), 3 bytes of padding */
#define NNC_FW_STATUS_REQ_LEN		8
/* STATUS_RESP: type, status_code, host_api_info_data_internal_t (496) */
#define NNC_FW_STATUS_RESP_LEN		504
/* host_api_info_data_header_internal_t.format_version the runtime expects */
#define NNC_FW_STATUS_FORMAT		12
/* An answer to a command the card does not know: type 0, status */
#define NNC_FW_ERROR_RESP_LEN		8

/* The program lifecycle's commands and answers (QNncProtocol.h), bytes */
#define NNC_FW_LOAD_ELF_REQ_LEN		96
#define NNC_FW_LOAD_CONSTANTS_REQ_LEN	88
#define NNC_FW_LOAD_CONSTANTS_EX_REQ_LEN 80	/* the descriptor follows */
#define NNC_FW_LOAD_PAYLOAD_REQ_LEN	32
#define NNC_FW_LOAD_RESP_LEN		16	/* LOAD_ELF_RESP, LOAD_CONSTANTS_RESP */
#define NNC_FW_UNLOAD_REQ_LEN		8
#define NNC_FW_ACTIVATE_REQ_LEN		48
#define NNC_FW_ACTIVATE_RESP_LEN	88
#define NNC_FW_DEACTIVATE_REQ_LEN	16
#define NNC_FW_STATUS_ONLY_RESP_LEN	8	/* type, status_code */
#define NNC_FW_STATE_CMD_REQ_LEN	72	/* 8 (acid, cmd) pairs */
#define NNC_FW_RESOURCE_INFO_REQ_LEN	16
#define NNC_FW_RESOURCE_INFO_RESP_LEN	56
#define NNC_FW_PERF_INFO_REQ_LEN	8
#define NNC_FW_PERF_INFO_RESP_LEN	64
#define NNC_FW_NAME_LEN			64	/* NNC_MAX_STRING_LENGTH */

/* The emulated firmware's bounds */
#define NNC_FW_MAX_ELFS			64	/* loaded ELFs, all handles */
#define NNC_FW_MAX_CONSTS		64	/* loaded constants, all handles */
#define NNC_FW_MAX_ACTIVATIONS		16	/* at most one per NSP of the card */
#define NNC_FW_MAX_DATA			(256ull << 20)	/* an image, constants */
/* Answers completed at the end of one request (message or continuation) */
#define NNC_FW_MAX_PENDING		8

#define NNC_FW_SERIAL_LEN		16	/* StatusQuerySerialSize */
#define NNC_FW_BOARD_SERIAL_LEN		32	/* StatusQueryBoardSerialSize */

struct emu_nnc_fw;

/*
 * What the card's manager tells the firmware about itself at the time of a
 * command: its resources in use, and the identity the card was given.
 */
struct emu_nnc_fw_state {
	const struct emu_card *card;
	const char *serial;		/* NULL: the card's default */
	const char *board_serial;	/* NULL: the card's default */
	uint64_t mem_used;		/* bytes DMA transfers hold */
	unsigned int dbc_active;	/* DBCs granted to a host */
	unsigned int dbc_total;
	/* The lifecycle: NULL answers its commands "undefined request" */
	struct emu_nnc_fw *fw;
	uint32_t handle;		/* the message's: who owns what */
	bool can_defer;			/* room for one more pending answer */
};

/*
 * A command whose answer waits for the end of the request: a copy of the
 * command and what the manager must find out about the request for it.
 */
struct emu_nnc_fw_pending {
	uint32_t handle;
	uint32_t len;
	uint8_t cmd[NNC_FW_LOAD_ELF_REQ_LEN];	/* the longest such command */
	bool wants_data;		/* the bytes the request brought for tag */
	uint32_t tag;
	uint64_t data_length;		/* how many the command says, or 0 */
	bool wants_dbc;			/* the DBC the request's ACTIVATE granted */
};

/* What the firmware asks of the manager after a command. */
struct emu_nnc_fw_action {
	int32_t status;			/* of the answer; 0 while pending */
	bool pending;			/* the answer is provisional: complete @p */
	struct emu_nnc_fw_pending p;
	int release_dbc;		/* DEACTIVATE_REQ: release it, or -1 */
};

/* What a request brought for a pending command. */
struct emu_nnc_fw_arrived {
	const uint8_t *data;		/* the tag's bytes of the request, in order */
	uint64_t len;
	uint64_t room;			/* device memory free, those bytes counted free */
	int dbc;			/* granted to the handle and still its, or -1 */
	/*
	 * Writes device memory (the DBC engine's) at activation, where the
	 * image's segments go: 0 or -errno. NULL: nothing is placed.
	 */
	int (*write_mem)(void *ctx, uint64_t addr, const void *buf, uint64_t len);
	void *mem_ctx;
};

/* Whether the first word of a passthrough payload is a firmware command. */
static inline int emu_nnc_fw_is_cmd(uint32_t type)
{
	return type < EMU_NNC_FW_CMD_MAX;
}

/*
 * Answer the command in @cmd (@len bytes, the passthrough payload) into
 * @out (@room bytes). Returns the answer's length, or 0 if it does not
 * fit @room (the manager then answers that the answer is too big). @act
 * (may be NULL when @st has no fw) says what the manager must do besides.
 */
uint32_t emu_nnc_fw_answer(const struct emu_nnc_fw_state *st,
			   const uint8_t *cmd, uint32_t len,
			   uint8_t *out, uint32_t room,
			   struct emu_nnc_fw_action *act);

/*
 * The request of @p ended: act on the command and write its final answer
 * over the provisional one at @out (same length), or only act if @out is
 * NULL (the answer was lost). @card as in struct emu_nnc_fw_state.
 * Returns the answer's status.
 */
int32_t emu_nnc_fw_complete(struct emu_nnc_fw *fw, const struct emu_card *card,
			 const struct emu_nnc_fw_pending *p,
			 const struct emu_nnc_fw_arrived *in, uint8_t *out);

struct emu_nnc_fw *emu_nnc_fw_create(void);
void emu_nnc_fw_destroy(struct emu_nnc_fw *fw);
/* The card reset: everything goes. */
void emu_nnc_fw_reset(struct emu_nnc_fw *fw);
/* TERMINATE of @handle: its activations, ELFs and constants go. */
void emu_nnc_fw_terminate(struct emu_nnc_fw *fw, uint32_t handle);
/* DBC @dbc was released, whatever the way: its activation ends. */
void emu_nnc_fw_dbc_released(struct emu_nnc_fw *fw, unsigned int dbc);
/* Device memory the loaded ELFs and constants hold, bytes. */
uint64_t emu_nnc_fw_mem_held(const struct emu_nnc_fw *fw);

/* A loaded ELF or constants, as the firmware keeps it. */
struct emu_nnc_fw_item {
	uint32_t handle;
	uint64_t len;		/* bytes; an EX region: its extent */
	uint32_t crc;		/* zlib CRC-32 of the bytes */
	unsigned int users;	/* activations using it */
};

/* ELF (@consts false) or constants @id: 0 and *@out, or -1 if unknown. */
int emu_nnc_fw_lookup(const struct emu_nnc_fw *fw, bool consts, uint32_t id,
		      struct emu_nnc_fw_item *out);

/* An activation: 0 and its fields, or -1 if unknown. Any may be NULL. */
int emu_nnc_fw_activation(const struct emu_nnc_fw *fw, uint32_t id,
			  uint32_t *handle, uint32_t *elf_id,
			  uint32_t *constants_id, unsigned int *dbc,
			  int32_t *state);

/* "key value" lines: fw_elf_loads, fw_activations, fw_err_*, ... */
void emu_nnc_fw_print_counters(const struct emu_nnc_fw *fw, FILE *out);

#endif /* QAIC_EMU_NNC_FW_H */
