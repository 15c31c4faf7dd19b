/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef IGT_QAIC_BOOT_H
#define IGT_QAIC_BOOT_H

#include <stdbool.h>
#include <stddef.h>

#include "igt_qaic.h"

/* Longest a boot may take, from power-on to its verdict in the log. */
#define IGT_QAIC_BOOT_WAIT_S	20

const char *igt_qaic_kernel_log(void);
void igt_qaic_kernel_log_free(void);
int igt_qaic_log_lines(unsigned int card, const char *what, char *last, size_t len);
bool igt_qaic_card_present(unsigned int card);
unsigned int igt_qaic_card_device(unsigned int card);
bool igt_qaic_boot_verdict_ours(void);
bool igt_qaic_wait_boot(unsigned int card, int failed_before, int up_before,
			char *line, size_t len);
void igt_qaic_rebind(unsigned int card);
void igt_qaic_power_cycle(unsigned int card);
int igt_qaic_open_card_up(unsigned int card);
void igt_qaic_assert_clean_log(size_t from);

#endif /* IGT_QAIC_BOOT_H */
