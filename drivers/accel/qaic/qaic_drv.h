/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_DRV_H_
#define _QAIC_DRV_H_

#include <linux/pci.h>
#include <linux/types.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#define QAIC_NAME		"qaic"
#define QAIC_DESC		"Qualcomm Cloud AI 100 accelerator"

/* BARs the card must have: MHI registers, DBC registers, and a third one. */
#define QAIC_BAR_MHI		0
#define QAIC_BAR_DBC		2
#define QAIC_BAR_MASK		(BIT(0) | BIT(2) | BIT(4))

/*
 * Interrupts: vector 0 is MHI's, vector 1 + i is DMA Bridge Channel i's.
 * With a single vector every source shares vector 0.
 */
#define QAIC_NUM_DBC		16
#define QAIC_NUM_IRQS		32

/**
 * struct qaic_device - One AIC100 card.
 * @drm: DRM device; /dev/accel/accelN. Embedded: the device lives as long as
 *	 the last reference to it, past PCI remove.
 * @pdev: The PCI function.
 * @bar_mhi: Mapped MHI register BAR; valid only inside drm_dev_enter().
 * @bar_dbc: Mapped DMA Bridge Channel register BAR; same rule.
 * @num_irqs: Interrupt vectors allocated: %QAIC_NUM_IRQS or 1.
 * @irq_msix: The vectors are MSI-X rather than MSI.
 */
struct qaic_device {
	struct drm_device drm;
	struct pci_dev *pdev;
	void __iomem *bar_mhi;
	void __iomem *bar_dbc;
	unsigned int num_irqs;
	bool irq_msix;
};

/**
 * struct qaic_file_priv - State of one open file of a card.
 * @qdev: The card.
 * @id: Number of the file, unique per card, for log lines.
 */
struct qaic_file_priv {
	struct qaic_device *qdev;
	u32 id;
};

static inline struct qaic_device *to_qaic_device(struct drm_device *drm)
{
	return container_of(drm, struct qaic_device, drm);
}

/* qaic_manage.c */
int qaic_manage_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

/* qaic_gem.c */
int qaic_create_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int qaic_mmap_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

/* qaic_slice.c */
int qaic_attach_slice_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int qaic_detach_slice_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

/* qaic_job.c */
int qaic_execute_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int qaic_partial_execute_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int qaic_wait_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int qaic_perf_stats_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _QAIC_DRV_H_ */
