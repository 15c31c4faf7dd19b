// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The emulated card's Sahara images (see sahara_images.h).
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include "sahara_images.h"

static const struct emu_sahara_image aic100_images[] = {
	{ 1, "aic100/fw1.bin", false }, { 2, "aic100/fw2.bin", false }, { 4, "aic100/fw4.bin", false },
	{ 5, "aic100/fw5.bin", true }, { 6, "aic100/fw6.bin", false }, { 8, "aic100/fw8.bin", false },
	{ 9, "aic100/fw9.bin", false }, { 10, "aic100/fw10.bin", true },
};

const struct emu_sahara_table emu_sahara_aic100_table = {
	aic100_images, sizeof(aic100_images) / sizeof(aic100_images[0]), false,
};

static const struct emu_sahara_image aic200_images[] = {
	{ 5, "aic200/uefi.elf", false }, { 12, "aic200/aic200-nsp.bin", false },
	{ 23, "aic200/aop.mbn", false }, { 32, "aic200/tz.mbn", false }, { 33, "aic200/hypvm.mbn", false },
	{ 38, "aic200/xbl_config.elf", false }, { 39, "aic200/aic200_abl.elf", false },
	{ 40, "aic200/apdp.mbn", false }, { 41, "aic200/devcfg.mbn", false }, { 42, "aic200/sec.elf", false },
	{ 43, "aic200/aic200-hlos.elf", false }, { 49, "aic200/shrm.elf", false },
	{ 50, "aic200/cpucp.elf", false }, { 51, "aic200/aop_devcfg.mbn", false },
	{ 54, "aic200/qupv3fw.elf", false }, { 57, "aic200/cpucp_dtbs.elf", false },
	{ 62, "aic200/uefi_dtbs.elf", false }, { 63, "aic200/xbl_ac_config.mbn", true },
	{ 64, "aic200/tz_ac_config.mbn", false }, { 65, "aic200/hyp_ac_config.mbn", false },
	{ 66, "aic200/pdp.elf", false }, { 67, "aic200/pdp_cdb.elf", false }, { 68, "aic200/sdi.mbn", false },
	{ 69, "aic200/dcd.mbn", false }, { 73, "aic200/gearvm.mbn", false }, { 74, "aic200/sti.bin", false },
	{ 76, "aic200/tz_qti_config.mbn", false }, { 78, "aic200/pvs.bin", true },
};

const struct emu_sahara_table emu_sahara_aic200_table = {
	aic200_images, sizeof(aic200_images) / sizeof(aic200_images[0]), true,
};
