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
 * Today the card answers STATUS_REQ. Every other command gets an answer of
 * type 0 with status NNC_FW_UNDEFINED_REQUEST: the card says it does not
 * do that, rather than leaving the host waiting.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_NNC_FW_H
#define QAIC_EMU_NNC_FW_H

#include <stdint.h>

struct emu_card;

/* Command types (QNncProtocol.h, enum nnc_command_type) */
#define NNC_FW_CMD_UNDEFINED		0
#define NNC_FW_CMD_STATUS_REQ		13
#define NNC_FW_CMD_STATUS_RESP		14
#define EMU_NNC_FW_CMD_MAX		50	/* NNC_COMMAND_TYPE_MAX */

/* Status codes (enum nnc_status_code) the card answers with */
#define NNC_FW_SUCCESS			0
#define NNC_FW_UNDEFINED_REQUEST	(-3)
#define NNC_FW_PARAMETER_ERROR		(-6)
#define NNC_FW_CMD_LENGTH_ERROR		(-17)

/* STATUS_REQ: type, info_type (u8), 3 bytes of padding */
#define NNC_FW_STATUS_REQ_LEN		8
/* STATUS_RESP: type, status_code, host_api_info_data_internal_t (496) */
#define NNC_FW_STATUS_RESP_LEN		504
/* host_api_info_data_header_internal_t.format_version the runtime expects */
#define NNC_FW_STATUS_FORMAT		12
/* An answer to a command the card does not know: type 0, status */
#define NNC_FW_ERROR_RESP_LEN		8

#define NNC_FW_SERIAL_LEN		16	/* StatusQuerySerialSize */
#define NNC_FW_BOARD_SERIAL_LEN		32	/* StatusQueryBoardSerialSize */

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
};

/* Whether the first word of a passthrough payload is a firmware command. */
static inline int emu_nnc_fw_is_cmd(uint32_t type)
{
	return type < EMU_NNC_FW_CMD_MAX;
}

/*
 * Answer the command in @cmd (@len bytes, the passthrough payload) into
 * @out (@room bytes). Returns the answer's length, or 0 if it does not
 * fit @room (the manager then answers that the answer is too big).
 */
uint32_t emu_nnc_fw_answer(const struct emu_nnc_fw_state *st,
			   const uint8_t *cmd, uint32_t len,
			   uint8_t *out, uint32_t room);

#endif /* QAIC_EMU_NNC_FW_H */
