// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cards qaic-emu can be (see card.h).
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <string.h>

#include "card.h"
#include "pci.h"
#include "sahara_images.h"

const struct emu_card emu_card_aic100 = {
	.name = "aic100",
	.device_id = EMU_PCI_DEVICE_ID,
	.bar_size = { [0] = EMU_BAR0_SIZE, [2] = EMU_BAR2_SIZE, [4] = EMU_BAR4_SIZE },
	.mhi_bar = 0,
	.sbl_timesync = true,
	.sahara = &emu_sahara_aic100_table,
};

const struct emu_card emu_card_aic080 = {
	.name = "aic080",
	.device_id = EMU_PCI_DEVICE_ID_AIC080,
	.bar_size = { [0] = EMU_BAR0_SIZE, [2] = EMU_BAR2_SIZE, [4] = EMU_BAR4_SIZE },
	.mhi_bar = 0,
	.sbl_timesync = true,
	.sahara = &emu_sahara_aic100_table,
};

const struct emu_card emu_card_aic200 = {
	.name = "aic200",
	.device_id = EMU_PCI_DEVICE_ID_AIC200,
	.bar_size = { [0] = EMU_BAR0_SIZE, [1] = EMU_BAR0_SIZE, [2] = EMU_BAR2_SIZE,
		      [4] = EMU_BAR4_SIZE },
	.bar_32bit = { [0] = true, [1] = true },
	.mhi_bar = 1,
	.sbl_over_bhie = true,
	.sahara = &emu_sahara_aic200_table,
};

static const struct emu_card *const cards[] = {
	&emu_card_aic100, &emu_card_aic080, &emu_card_aic200,
};

const struct emu_card *emu_card_by_name(const char *name)
{
	for (unsigned int i = 0; i < sizeof(cards) / sizeof(cards[0]); i++)
		if (!strcmp(cards[i]->name, name))
			return cards[i];
	return NULL;
}

const struct emu_card *emu_card_by_id(uint16_t id)
{
	for (unsigned int i = 0; i < sizeof(cards) / sizeof(cards[0]); i++)
		if (cards[i]->device_id == id)
			return cards[i];
	return &emu_card_aic100;
}
