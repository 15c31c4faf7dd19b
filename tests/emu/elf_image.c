// SPDX-License-Identifier: GPL-2.0-only
/*
 * The network image's ELF program headers (elf_image.h). Offsets are the
 * ELF64 specification's, restated; everything read byte by byte.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include "elf_image.h"
#include "le_bytes.h"

/* ELF64 header */
#define EH_CLASS	4	/* 2: 64-bit */
#define EH_DATA		5	/* 1: little endian */
#define EH_VERSION	6	/* 1 */
#define EH_PHOFF	32	/* u64 */
#define EH_PHENTSIZE	54	/* u16 */
#define EH_PHNUM	56	/* u16 */

/* Program header */
#define PH_TYPE		0	/* u32 */
#define PH_OFFSET	8	/* u64 */
#define PH_PADDR	24	/* u64 */
#define PH_FILESZ	32	/* u64 */
#define PH_MEMSZ	40	/* u64 */
#define PT_LOAD		1
#define MAX_PHDRS	64

static uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

int emu_elf_segments(const uint8_t *img, uint64_t len, struct emu_elf_seg *segs)
{
	uint64_t phoff;
	unsigned int phnum, n = 0;

	if (!img || len < EMU_ELF_EHDR_LEN || img[0] != 0x7f || img[1] != 'E' ||
	    img[2] != 'L' || img[3] != 'F' || img[EH_CLASS] != 2 || img[EH_DATA] != 1 ||
	    img[EH_VERSION] != 1)
		return -1;
	phoff = get_le64(img + EH_PHOFF);
	phnum = get_le16(img + EH_PHNUM);
	if (get_le16(img + EH_PHENTSIZE) != EMU_ELF_PHDR_LEN || phnum > MAX_PHDRS ||
	    phoff > len || (uint64_t)phnum * EMU_ELF_PHDR_LEN > len - phoff)
		return -1;
	for (unsigned int i = 0; i < phnum; i++) {
		const uint8_t *ph = img + phoff + (uint64_t)i * EMU_ELF_PHDR_LEN;
		struct emu_elf_seg s = {
			.offset = get_le64(ph + PH_OFFSET),
			.filesz = get_le64(ph + PH_FILESZ),
			.paddr = get_le64(ph + PH_PADDR),
			.memsz = get_le64(ph + PH_MEMSZ),
		};

		if (get_le32(ph + PH_TYPE) != PT_LOAD)
			continue;
		if (n == EMU_ELF_MAX_SEGS || s.filesz > s.memsz || s.offset > len ||
		    s.filesz > len - s.offset || s.paddr + s.memsz < s.paddr)
			return -1;
		segs[n++] = s;
	}
	return (int)n;
}
