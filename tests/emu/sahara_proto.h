/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Sahara's packets as they are on the wire: the command numbers and the
 * length of each command's packet, in bytes. A packet is little-endian
 * 32-bit words, the command, then the packet's length, then its fields
 * (READ_DATA64 and MEMORY_DEBUG64: 64-bit fields after the two words).
 *
 * Facts from Linux 6.12 (drivers/accel/qaic/sahara.c) and 6.13 for the
 * memory-debug commands. Shared by the emulated card (sahara.c,
 * memdump.c) and the systematic cases (sahara_cases.c), which the IGT
 * tests also build.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_SAHARA_PROTO_H
#define QAIC_EMU_SAHARA_PROTO_H

/* Commands. */
#define SAHARA_HELLO		0x01
#define SAHARA_HELLO_RESP	0x02
#define SAHARA_READ_DATA	0x03
#define SAHARA_END_OF_IMAGE	0x04
#define SAHARA_DONE		0x05
#define SAHARA_DONE_RESP	0x06
#define SAHARA_RESET		0x07
#define SAHARA_RESET_RESP	0x08
#define SAHARA_MEMORY_DEBUG64	0x10
#define SAHARA_MEMORY_READ64	0x11
#define SAHARA_READ_DATA64	0x12

/* Packet lengths. */
#define SAHARA_HELLO_LEN		0x30
#define SAHARA_READ_DATA_LEN		0x14
#define SAHARA_READ_DATA64_LEN		0x20
#define SAHARA_END_OF_IMAGE_LEN		0x10
#define SAHARA_DONE_LEN			0x08
#define SAHARA_DONE_RESP_LEN		0x0c
#define SAHARA_RESET_LEN		0x08
#define SAHARA_MEMORY_DEBUG64_LEN	0x18
#define SAHARA_MEMORY_READ64_LEN	0x18

#define SAHARA_VERSION		2
#define SAHARA_VERSION_COMPAT	1
/* Largest READ_DATA the card asks for, and the host serves. */
#define SAHARA_MAX_READ		0x80000

/* HELLO's mode field. */
#define SAHARA_MODE_IMAGE_PENDING	0
#define SAHARA_MODE_IMAGE_COMPLETE	1
#define SAHARA_MODE_MEMORY_DEBUG	2

/* DONE_RESP image_tx_status */
#define SAHARA_TX_PENDING	0
#define SAHARA_TX_COMPLETE	1

#endif /* QAIC_EMU_SAHARA_PROTO_H */
