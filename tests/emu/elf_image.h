/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The network image the card's firmware loads (LOAD_ELF, nnc_fw.c): an
 * ELF64 little-endian file whose PT_LOAD program headers say what goes
 * where in the card's device memory. p_paddr is the device address.
 *
 * What the emulated card takes of it: the segments with bytes (p_filesz
 * > 0) are copied to p_paddr at activation, the rest of p_memsz zeroed;
 * the first segment without bytes (p_filesz 0) is where the activation's
 * constants go, up to its p_memsz. Nothing else of the file is read.
 * Every field is checked against the file's length before it is used:
 * the image is the host's, untrusted.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_ELF_IMAGE_H
#define QAIC_EMU_ELF_IMAGE_H

#include <stdint.h>

#define EMU_ELF_MAX_SEGS	16	/* PT_LOAD segments taken */
#define EMU_ELF_EHDR_LEN	64
#define EMU_ELF_PHDR_LEN	56

struct emu_elf_seg {
	uint64_t offset;		/* in the file */
	uint64_t filesz;		/* bytes from the file; 0: constants */
	uint64_t paddr;			/* device address */
	uint64_t memsz;			/* >= filesz */
};

/*
 * The PT_LOAD segments of the ELF image @img of @len bytes into @segs (at
 * most EMU_ELF_MAX_SEGS). Returns how many, or -1 if it is not an ELF64
 * little-endian image whose segments lie in the file and do not wrap.
 */
int emu_elf_segments(const uint8_t *img, uint64_t len, struct emu_elf_seg *segs);

#endif /* QAIC_EMU_ELF_IMAGE_H */
