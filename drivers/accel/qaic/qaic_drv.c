// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic driver overview
 *
 * The Qualcomm Cloud AI 100 (AIC100) is a PCIe inference card; the AIC080
 * (PCI device 0xa080) is the same host interface with another id, and the
 * AIC200 (0xa110) differs in where its registers are and how it boots
 * (&struct qaic_card). Their host interface is two register BARs: BAR0
 * (BAR1 on an AIC200) holds the MHI (Modem Host Interface) block through
 * which the card's manager is configured, BAR2 holds sixteen DMA Bridge
 * Channels (DBCs) through which buffers move between host memory and the
 * card.
 *
 * The driver registers one DRM accel device per card (/dev/accel/accelN).
 * All memory the driver allocates for a card is managed: devm for what only
 * the hardware uses, drmm for what userspace can reach, so that the card can
 * be unplugged while files are still open. After remove, every ioctl fails
 * with -ENODEV; the &struct qaic_device itself lives until the last file is
 * closed.
 */

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/pci.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>

#include <uapi/drm/qaic_accel.h>

#include "qaic_bootlog.h"
#include "qaic_cntl.h"
#include "qaic_compat.h"
#include "qaic_coredump.h"
#include "qaic_debugfs.h"
#include "qaic_drv.h"
#include "qaic_fdinfo.h"
#include "qaic_gem.h"
#include "qaic_job.h"
#include "qaic_manage.h"
#include "qaic_mhi.h"
#include "qaic_owner.h"
#include "qaic_prime.h"
#include "qaic_queue.h"
#include "qaic_ras.h"
#include "qaic_reset.h"
#include "qaic_ring.h"
#include "qaic_sahara.h"
#include "qaic_slice.h"
#include "qaic_ssr.h"
#include "qaic_submit.h"
#include "qaic_sysfs.h"
#include "qaic_telemetry.h"
#include "qaic_timesync.h"

/* DBC i's registers start here in BAR2; the BAR must cover all of them. */
#define QAIC_DBC_BASE		0x20000
#define QAIC_DBC_STRIDE		0x1000
#define QAIC_DBC_BAR_MIN	(QAIC_DBC_BASE + QAIC_NUM_DBC * QAIC_DBC_STRIDE)
/* The MHI register block, up to and including the BHI registers. */
#define QAIC_MHI_BAR_MIN	SZ_4K

static int qaic_open(struct drm_device *drm, struct drm_file *file)
{
	struct qaic_device *qdev = to_qaic_device(drm);
	struct qaic_file_priv *priv;
	int idx;
	int ret;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	/* The boot or the version check failed: the card is not usable. */
	if (qaic_mhi_boot_failed(qdev) || qaic_cntl_refused(qdev->cntl)) {
		drm_dev_exit(idx);
		return -ENODEV;
	}

	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv) {
		drm_dev_exit(idx);
		return -ENOMEM;
	}
	priv->qdev = qdev;
	INIT_LIST_HEAD(&priv->stale);
	ret = xa_alloc_cyclic(&qdev->file_ids, &priv->id, priv, XA_LIMIT(1, U32_MAX),
			      &qdev->next_file_id, GFP_KERNEL);
	if (ret < 0) {
		drm_dbg(drm, "open: no free file id: %d\n", ret);
		kfree(priv);
		drm_dev_exit(idx);
		return ret;
	}
	file->driver_priv = priv;
	drm_dbg(drm, "file %u opened\n", priv->id);

	drm_dev_exit(idx);
	return 0;
}

static void qaic_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct qaic_file_priv *priv = file->driver_priv;

	drm_dbg(drm, "file %u closed\n", priv->id);
	qaic_owner_release_file(priv->qdev, priv);
	/* The card let go of what the id held: it may name another file. */
	qaic_owner_forget_file(priv->qdev, priv);
	kfree(priv);
}

static const struct drm_ioctl_desc qaic_drm_ioctls[] = {
	DRM_IOCTL_DEF_DRV(QAIC_MANAGE, qaic_manage_ioctl, 0),
	DRM_IOCTL_DEF_DRV(QAIC_CREATE_BO, qaic_create_bo_ioctl, 0),
	DRM_IOCTL_DEF_DRV(QAIC_MMAP_BO, qaic_mmap_bo_ioctl, 0),
	DRM_IOCTL_DEF_DRV(QAIC_ATTACH_SLICE_BO, qaic_attach_slice_bo_ioctl, 0),
	DRM_IOCTL_DEF_DRV(QAIC_EXECUTE_BO, qaic_execute_bo_ioctl, 0),
	DRM_IOCTL_DEF_DRV(QAIC_PARTIAL_EXECUTE_BO, qaic_partial_execute_bo_ioctl, 0),
	DRM_IOCTL_DEF_DRV(QAIC_WAIT_BO, qaic_wait_bo_ioctl, 0),
	DRM_IOCTL_DEF_DRV(QAIC_PERF_STATS_BO, qaic_perf_stats_bo_ioctl, 0),
	DRM_IOCTL_DEF_DRV(QAIC_DETACH_SLICE_BO, qaic_detach_slice_bo_ioctl, 0),
	DRM_IOCTL_DEF_DRV(QAIC_SUBMIT, qaic_submit_ioctl, 0),
};

/* The accel defaults, and fdinfo: the DRM core's keys, then qaic_show_fdinfo()'s. */
static const struct file_operations qaic_accel_fops = {
	.owner		= THIS_MODULE,
	DRM_ACCEL_FOPS,
	.show_fdinfo	= drm_show_fdinfo,
};

static const struct drm_driver qaic_drm_driver = {
	.driver_features	= DRIVER_GEM | DRIVER_COMPUTE_ACCEL | DRIVER_SYNCOBJ |
				  DRIVER_SYNCOBJ_TIMELINE,
	.name			= QAIC_NAME,
	.desc			= QAIC_DESC,
	.major			= 1,
	.minor			= 0,

	.fops			= &qaic_accel_fops,
	.show_fdinfo		= qaic_show_fdinfo,
	.open			= qaic_open,
	.postclose		= qaic_postclose,
	.ioctls			= qaic_drm_ioctls,
	.num_ioctls		= ARRAY_SIZE(qaic_drm_ioctls),

	.gem_create_object	= qaic_gem_create_object,
	/* dma-bufs of other drivers become objects that can be sliced. */
	.gem_prime_import	= qaic_gem_prime_import,
	.gem_prime_import_sg_table = drm_gem_shmem_prime_import_sg_table,
};

/* Claim and map one BAR after checking it is at least @min_len long. */
static void __iomem *qaic_map_bar(struct pci_dev *pdev, int bar, resource_size_t min_len)
{
	resource_size_t len = pci_resource_len(pdev, bar);

	if (len < min_len) {
		pci_err(pdev, "BAR%d is %pa bytes, need %pa\n", bar, &len, &min_len);
		return IOMEM_ERR_PTR(-ENODEV);
	}

	return pcim_iomap_region(pdev, bar, QAIC_NAME);
}

static int qaic_pci_init(struct qaic_device *qdev)
{
	const struct qaic_card *card = qdev->card;
	struct pci_dev *pdev = qdev->pdev;
	unsigned int bar;
	int bars;
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;

	bars = pci_select_bars(pdev, IORESOURCE_MEM);
	if ((bars & card->bars) != card->bars) {
		pci_err(pdev, "%s: memory BARs %#x, need at least %#lx\n", card->name, bars,
			card->bars);
		return -ENODEV;
	}

	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	dma_set_max_seg_size(&pdev->dev, UINT_MAX);

	qdev->bar_mhi = qaic_map_bar(pdev, card->mhi_bar, QAIC_MHI_BAR_MIN);
	if (IS_ERR(qdev->bar_mhi))
		return PTR_ERR(qdev->bar_mhi);

	qdev->bar_dbc = qaic_map_bar(pdev, QAIC_BAR_DBC, QAIC_DBC_BAR_MIN);
	if (IS_ERR(qdev->bar_dbc))
		return PTR_ERR(qdev->bar_dbc);

	/* The host uses no other BAR; claim them so nobody else maps them. */
	for_each_set_bit(bar, &card->bars, PCI_STD_NUM_BARS) {
		if (bar == card->mhi_bar || bar == QAIC_BAR_DBC)
			continue;
		ret = pcim_request_region(pdev, bar, QAIC_NAME);
		if (ret)
			return ret;
	}

	pci_set_master(pdev);
	/* What PCI error recovery restores after a slot reset */
	pci_save_state(pdev);
	return 0;
}

/*
 * One vector per interrupt source (MHI and each DBC) when the platform has
 * them, MSI-X preferred; else a single vector that every source shares.
 * Asking for no more than the sources leaves vectors for other cards on
 * platforms with few of them (User-Mode Linux's PCI has 32 in all).
 * The vectors are released by pcim when the driver detaches.
 */
static int qaic_irq_init(struct qaic_device *qdev)
{
	struct pci_dev *pdev = qdev->pdev;
	int nvec;

	nvec = pci_alloc_irq_vectors(pdev, QAIC_NUM_IRQS, QAIC_NUM_IRQS,
				     PCI_IRQ_MSIX | PCI_IRQ_MSI);
	if (nvec < 0) {
		nvec = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSIX | PCI_IRQ_MSI);
		if (nvec < 0) {
			pci_err(pdev, "no MSI or MSI-X interrupts: %d\n", nvec);
			return nvec;
		}
		pci_info(pdev, "one vector shared by all interrupt sources\n");
	}

	qdev->num_irqs = nvec;
	qdev->irq_msix = pdev->msix_enabled;
	pci_dbg(pdev, "%u %s vectors\n", qdev->num_irqs, qdev->irq_msix ? "MSI-X" : "MSI");
	return 0;
}

static void qaic_file_ids_fini(struct drm_device *drm, void *data)
{
	xa_destroy(data);
}

/*
 * Where the next file id is looked for, for tests: they set it to an id in
 * use, or near the wrap, and check that open never hands out an id twice.
 */
static void qaic_debugfs_init(struct qaic_device *qdev)
{
	debugfs_create_u32("next_file_id", 0600, qdev->drm.debugfs_root, &qdev->next_file_id);
	qaic_debugfs_dbc_init(qdev);
}

/* Runs at detach, once MHI is down and the DRM device unplugged. */
static void qaic_release_dbcs(void *data)
{
	qaic_owner_release_all(data);
}

static int qaic_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct qaic_device *qdev;
	unsigned int i;
	int ret;

	qdev = devm_drm_dev_alloc(&pdev->dev, &qaic_drm_driver, struct qaic_device, drm);
	if (IS_ERR(qdev))
		return PTR_ERR(qdev);

	qdev->pdev = pdev;
	qdev->card = (const struct qaic_card *)id->driver_data;
	pci_set_drvdata(pdev, qdev);
#ifdef QAIC_MHI_NO_BHIE_SBL
	if (qdev->card->sbl_seg_len) {
		pci_err(pdev, "%s: its SBL loads over BHIe, which this kernel's MHI core cannot do (Linux 6.15 and later can)\n",
			qdev->card->name);
		return -ENODEV;
	}
#endif

	ret = qaic_pci_init(qdev);
	if (ret)
		return ret;

	ret = qaic_irq_init(qdev);
	if (ret)
		return ret;

	ret = drmm_mutex_init(&qdev->drm, &qdev->dbc_lock);
	if (ret)
		return ret;
	ret = qaic_coredump_init(qdev);
	if (ret)
		return ret;
	spin_lock_init(&qdev->mapped_lock);
	INIT_LIST_HEAD(&qdev->mapped);
	INIT_LIST_HEAD(&qdev->parked_jobs);
	INIT_LIST_HEAD(&qdev->parked_stale);
	xa_init_flags(&qdev->file_ids, XA_FLAGS_ALLOC1);
	ret = drmm_add_action_or_reset(&qdev->drm, qaic_file_ids_fini, &qdev->file_ids);
	if (ret)
		return ret;
	for (i = 0; i < QAIC_NUM_DBC; i++) {
		ret = drmm_mutex_init(&qdev->drm, &qdev->dbc[i].lock);
		if (ret)
			return ret;
	}
	ret = qaic_dbc_uevents_init(qdev);
	if (ret)
		return ret;
	qaic_ssr_init(qdev);

	ret = qaic_cntl_init(qdev);
	if (ret)
		return ret;

	ret = qaic_bootlog_init(qdev);
	if (ret)
		return ret;

	ret = devm_add_action_or_reset(&pdev->dev, qaic_release_dbcs, qdev);
	if (ret)
		return ret;

	/* After the action above: the handlers go first at detach. */
	ret = qaic_ring_irq_init(qdev);
	if (ret)
		return ret;

	/* Before MHI: its channel may come up as soon as MHI is. */
	ret = qaic_telemetry_init(qdev);
	if (ret)
		return ret;

	/* The control path comes up asynchronously, after this returns. */
	ret = qaic_mhi_init(qdev);
	if (ret)
		return ret;

	ret = qaic_ras_init(qdev);
	if (ret)
		return ret;

	qaic_debugfs_init(qdev);
	qaic_reset_debugfs_init(qdev);
	ret = drm_dev_register(&qdev->drm, 0);
	if (ret)
		return ret;
	qaic_sysfs_init(qdev);
	return 0;
}

/*
 * Stop userspace from reaching the hardware. Both ->shutdown and ->remove
 * call this, and ->remove may follow ->shutdown (User-Mode Linux does that
 * at power-off), so the second call must be harmless.
 *
 * drm_dev_unplug() waits for every ioctl inside drm_dev_enter(), some of
 * which wait for the card: what they wait for ends first. MHI goes down,
 * which fails the MANAGE calls waiting for answers; the card stops
 * mastering the bus; then every DBC is released, which signals the fences
 * of its jobs with an error (WAIT_BO and fence waits return) and frees its
 * rings, which the card can no longer reach. Once no ioctl runs, the
 * objects still held are unmapped from the card, which is going: their
 * pages stay, for their mappings and dma-bufs.
 */
static void qaic_unplug(struct qaic_device *qdev)
{
	qaic_mhi_stop(qdev);
	if (drm_dev_is_unplugged(&qdev->drm))
		return;

	pci_clear_master(qdev->pdev);
	qaic_owner_release_all(qdev);
	qaic_sysfs_fini(qdev);
	drm_dev_unplug(&qdev->drm);
	qaic_gem_unmap_all(qdev);
	/* The dumps of what went wrong on the way, while the device is there. */
	qaic_coredump_flush(qdev);
}

static void qaic_pci_remove(struct pci_dev *pdev)
{
	qaic_unplug(pci_get_drvdata(pdev));
}

static void qaic_pci_shutdown(struct pci_dev *pdev)
{
	qaic_unplug(pci_get_drvdata(pdev));
}

static const struct pci_device_id qaic_pci_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_QCOM, QAIC_PCI_ID_AIC100),
	  .driver_data = (kernel_ulong_t)&qaic_card_aic100 },
	{ PCI_DEVICE(PCI_VENDOR_ID_QCOM, QAIC_PCI_ID_AIC080),
	  .driver_data = (kernel_ulong_t)&qaic_card_aic080 },
	{ PCI_DEVICE(PCI_VENDOR_ID_QCOM, QAIC_PCI_ID_AIC200),
	  .driver_data = (kernel_ulong_t)&qaic_card_aic200 },
	{ }
};
MODULE_DEVICE_TABLE(pci, qaic_pci_ids);

static struct pci_driver qaic_pci_driver = {
	.name		= QAIC_NAME,
	.id_table	= qaic_pci_ids,
	.probe		= qaic_pci_probe,
	.remove		= qaic_pci_remove,
	.shutdown	= qaic_pci_shutdown,
	.err_handler	= &qaic_pci_err_handlers,
	.driver.pm	= pm_sleep_ptr(&qaic_pm_ops),
};

/**
 * qaic_pci_bound() - Whether qaic drives a PCI function now.
 * @pdev: The function; its device lock is held.
 *
 * Its driver data is a &struct qaic_device only then: root may have bound
 * another driver since a work item was queued for it.
 *
 * Return: true if this driver is bound to @pdev.
 */
bool qaic_pci_bound(struct pci_dev *pdev)
{
	device_lock_assert(&pdev->dev);
	return pdev->dev.driver == &qaic_pci_driver.driver;
}

static int __init qaic_init(void)
{
	int ret;

	/* Before the PCI driver, so QAIC_CONTROL binds as soon as it appears. */
	ret = qaic_cntl_register();
	if (ret)
		return ret;

	ret = qaic_sahara_register();
	if (ret)
		goto unregister_cntl;

	ret = qaic_ssr_register();
	if (ret)
		goto unregister_sahara;

	ret = qaic_ras_register();
	if (ret)
		goto unregister_ssr;

	ret = qaic_bootlog_register();
	if (ret)
		goto unregister_ras;

	ret = qaic_timesync_register();
	if (ret)
		goto unregister_bootlog;

	ret = qaic_telemetry_register();
	if (ret)
		goto unregister_timesync;

	ret = qaic_reset_init();
	if (ret)
		goto unregister_telemetry;

	ret = pci_register_driver(&qaic_pci_driver);
	if (ret)
		goto fini_reset;
	return 0;

fini_reset:
	qaic_reset_fini();
unregister_telemetry:
	qaic_telemetry_unregister();
unregister_timesync:
	qaic_timesync_unregister();
unregister_bootlog:
	qaic_bootlog_unregister();
unregister_ras:
	qaic_ras_unregister();
unregister_ssr:
	qaic_ssr_unregister();
unregister_sahara:
	qaic_sahara_unregister();
unregister_cntl:
	qaic_cntl_unregister();
	return ret;
}

static void __exit qaic_exit(void)
{
	pci_unregister_driver(&qaic_pci_driver);
	qaic_reset_fini();
	qaic_telemetry_unregister();
	qaic_timesync_unregister();
	qaic_bootlog_unregister();
	qaic_ras_unregister();
	qaic_ssr_unregister();
	qaic_sahara_unregister();
	qaic_cntl_unregister();
}

module_init(qaic_init);
module_exit(qaic_exit);

MODULE_AUTHOR("The qaic authors");
MODULE_DESCRIPTION(QAIC_DESC " driver");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("DMA_BUF");
