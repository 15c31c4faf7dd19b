// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic resets, PCI errors and system sleep
 *
 * Besides the system errors the card reports itself, which the MHI core
 * recovers (qaic_mhi.c), the card is reset from the host side:
 *
 * - PCI error recovery. The PCI core calls error_detected(); the driver
 *   stops the card and asks for a reset of the slot (after mmio_enabled()
 *   when the link still works). slot_reset() restores the config space the
 *   driver saved at probe; resume() powers the card up again. After a
 *   permanent failure the card stays stopped: the device is going away.
 * - A function-level reset through pci_reset_function() (sysfs ``reset``):
 *   reset_prepare() stops the card, reset_done() powers it up again.
 *
 * Stopping the card powers MHI down, which fails the MANAGE calls waiting
 * for the card and removes the QAIC_CONTROL and QAIC_SAHARA devices, and
 * releases every DBC: the jobs on it fail (their fences signal with
 * -ECANCELED, WAIT_BO returns) and its rings are freed. Files keep their
 * objects, mappings and fences. While the card is down, MANAGE waits for
 * the control path as during any boot (bounded, then -ENODEV), and the
 * ioctls on a DBC that was released fail with -EPERM, as on any DBC the
 * file does not hold: a file activates again once the card is back.
 * Powering up boots the card again, from PBL.
 *
 * A card whose manager stops answering while it is still on the bus (its
 * firmware hung) cannot be helped through the control path, and DBC resets
 * do not reach the manager: a MANAGE call that times out when no answer came
 * for %QAIC_RESET_SILENT_CALLS answer timeouts (one lost answer, or one lost
 * interrupt that times out every call in flight at once, is not a hung
 * manager) resets the whole card (qaic_reset_card()), by a function-level
 * reset when the
 * card has one, else by a SoC reset through MHI between stopping and
 * powering up the card, as above. The calls fail with -ETIMEDOUT; the
 * card boots again.
 *
 * A card that fell off the bus (config space reads all-ones) is given up:
 * the driver unbinds itself from it, which ends the work in flight as an
 * unbind does (every ioctl then fails with -ENODEV) without waiting for a
 * card that will not answer. A DBC's job timeout and a MANAGE answer that
 * never came are where the driver looks (qaic_reset_check_card()).
 *
 * System sleep is a reset the host chooses: suspend is refused with -EBUSY
 * while a job of any DBC is not done (the work would be lost), else the
 * card is stopped as above and left to the PCI core, which saves its
 * state and puts it in D3hot; once the machine is awake it is powered up
 * again and boots.
 * What userspace sees is what it sees of a reset: its DBCs are released,
 * it activates again.
 *
 * The PCI core of User-Mode Linux cannot raise AER: the debugfs file
 * ``pci_error`` (in the DRM device's directory) runs the callbacks in the
 * order the PCI core's recovery would. Writing ``normal`` or ``frozen``
 * reports an error with the channel in that state; the slot reset in
 * between is a function-level reset when the card has one. The callbacks
 * run under the device lock, as the PCI core runs them; the write fails
 * with -EBUSY if that lock is taken.
 */

#include <linux/bitops.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/fs.h>
#include <linux/mhi.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/stringify.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "qaic_cntl.h"
#include "qaic_drv.h"
#include "qaic_mhi.h"
#include "qaic_owner.h"
#include "qaic_queue.h"
#include "qaic_reset.h"
#include "qaic_trace.h"

/*
 * Work on a card that its callers cannot do in place (they hold locks it
 * takes): unbinding from a card that fell off the bus, or resetting one.
 * It runs on a workqueue of the module's own, which module unload drains
 * once the driver is unregistered (qaic_reset_fini()): a work item holds a
 * reference to the PCI device, not to the module whose code it runs.
 */
static struct workqueue_struct *qaic_reset_wq;

struct qaic_reset_work {
	struct work_struct work;
	struct pci_dev *pdev;	/* held until the work ran */
};

/* Schedules @fn on a reference to @pdev; false if out of memory. */
static bool qaic_reset_schedule(struct pci_dev *pdev, work_func_t fn)
{
	struct qaic_reset_work *r = kzalloc(sizeof(*r), GFP_ATOMIC);

	if (!r)
		return false;
	INIT_WORK(&r->work, fn);
	r->pdev = pci_dev_get(pdev);
	queue_work(qaic_reset_wq, &r->work);
	return true;
}

/**
 * qaic_reset_init() - Create the workqueue of resets and unbinds.
 *
 * Return: 0 or -ENOMEM.
 */
int qaic_reset_init(void)
{
	/*
	 * Freezable: a reset queued just before system sleep runs after it,
	 * not between the card's .suspend and .complete, where it would boot
	 * a card the host stopped (and maybe into the hibernation image).
	 */
	qaic_reset_wq = alloc_workqueue("qaic_reset", WQ_UNBOUND | WQ_FREEZABLE, 0);
	return qaic_reset_wq ? 0 : -ENOMEM;
}

/**
 * qaic_reset_fini() - Run what is queued and destroy the workqueue.
 *
 * Called once the PCI driver is unregistered: a reset or unbind still
 * queued then finds the card unbound and does nothing, but it runs this
 * module's code, which must still be there.
 */
void qaic_reset_fini(void)
{
	destroy_workqueue(qaic_reset_wq);
}

/* Unbinds the driver from a card that fell off the bus. */
static void qaic_reset_lost_work(struct work_struct *work)
{
	struct qaic_reset_work *r = container_of(work, struct qaic_reset_work, work);
	bool ours;

	/*
	 * Only our binding is given up: root may have rebound the function
	 * since (a remove under way finishes first, under the device lock).
	 */
	device_lock(&r->pdev->dev);
	ours = qaic_pci_bound(r->pdev);
	device_unlock(&r->pdev->dev);
	if (ours)
		device_release_driver(&r->pdev->dev);
	pci_dev_put(r->pdev);
	kfree(r);
}

/**
 * qaic_reset_check_card() - Give up a card that fell off the bus.
 * @qdev: The card, which did not answer in time.
 *
 * Reads the card's vendor id: all-ones means it is gone. The first caller
 * to find it so marks it gone (MHI then powers down without waiting for
 * it) and has the driver unbind from it, from a work item: callers hold
 * locks the unbind takes. Never waits; may be called from any context.
 *
 * Return: true if the card is gone.
 */
bool qaic_reset_check_card(struct qaic_device *qdev)
{
	if (pci_device_is_present(qdev->pdev))
		return false;
	if (test_and_set_bit(QAIC_CARD_GONE, &qdev->card_state))
		return true;
	drm_err(&qdev->drm, "the card fell off the bus: giving it up\n");
	trace_qaic_card_state(qdev, "gone", "off the bus");
	qaic_reset_schedule(qdev->pdev, qaic_reset_lost_work);
	return true;
}

static void qaic_reset_stop(struct qaic_device *qdev, const char *why);
static void qaic_reset_start(struct qaic_device *qdev, const char *why);

/*
 * Resets the card and waits: a function reset if the card has one, else a
 * SoC reset. Once it returns the card forgot what it was given before it
 * (or it was unbound meanwhile, which stopped it).
 */
static void qaic_reset_card_sync(struct pci_dev *pdev)
{
	struct qaic_device *qdev;

	/* reset_prepare() and reset_done() do the work; -ENOTTY: no way to */
	if (pci_reset_function(pdev) == -ENOTTY) {
		device_lock(&pdev->dev);
		qdev = qaic_pci_bound(pdev) ? pci_get_drvdata(pdev) : NULL;
		if (qdev) {
			qaic_reset_stop(qdev, "card reset");
			mhi_soc_reset(qdev->mhi);
			qaic_reset_start(qdev, "card reset");
		}
		device_unlock(&pdev->dev);
	}
}

/* Resets a card that cannot go on. */
static void qaic_reset_card_work(struct work_struct *work)
{
	struct qaic_reset_work *r = container_of(work, struct qaic_reset_work, work);
	struct pci_dev *pdev = r->pdev;
	struct qaic_device *qdev;

	qaic_reset_card_sync(pdev);
	/* Still bound: the next silence may reset it again */
	device_lock(&pdev->dev);
	qdev = qaic_pci_bound(pdev) ? pci_get_drvdata(pdev) : NULL;
	if (qdev)
		clear_bit(QAIC_CARD_RESETTING, &qdev->card_state);
	device_unlock(&pdev->dev);
	pci_dev_put(pdev);
	kfree(r);
}

/**
 * qaic_reset_card() - Reset a card that cannot go on: its manager stopped
 *		       answering, or it reported an uncorrectable error.
 * @qdev: The card, still on the bus.
 * @why: For the log.
 *
 * Schedules the reset (callers hold locks it takes) unless one is on its
 * way already or the card fell off the bus. Never waits.
 */
void qaic_reset_card(struct qaic_device *qdev, const char *why)
{
	if (test_bit(QAIC_CARD_GONE, &qdev->card_state) ||
	    test_and_set_bit(QAIC_CARD_RESETTING, &qdev->card_state))
		return;
	drm_err(&qdev->drm, "%s: resetting the card\n", why);
	trace_qaic_card_state(qdev, "resetting", why);
	if (!qaic_reset_schedule(qdev->pdev, qaic_reset_card_work))
		clear_bit(QAIC_CARD_RESETTING, &qdev->card_state);
}

/**
 * qaic_reset_card_now() - Reset a card that may still reach memory the host
 *			   must free, and wait for it.
 * @qdev: The card.
 * @why: For the log.
 *
 * For a caller that holds no lock the reset takes (the device lock, the
 * file list, the DBC locks) and is not inside drm_dev_enter(). Once it
 * returns, the card forgot what it was given before: it was reset, or it
 * fell off the bus or was unbound, which stopped it.
 */
void qaic_reset_card_now(struct qaic_device *qdev, const char *why)
{
	if (test_bit(QAIC_CARD_GONE, &qdev->card_state) || drm_dev_is_unplugged(&qdev->drm))
		return;
	drm_err(&qdev->drm, "%s: resetting the card\n", why);
	trace_qaic_card_state(qdev, "resetting", why);
	qaic_reset_card_sync(qdev->pdev);
}

/* Answer timeouts without any answer that make a silent manager */
#define QAIC_RESET_SILENT_CALLS	3

/**
 * qaic_reset_manager_silent() - A MANAGE call got no answer in time.
 * @qdev: The card, still on the bus.
 *
 * Resets the card if no MANAGE message got an answer for
 * %QAIC_RESET_SILENT_CALLS answer timeouts.
 */
void qaic_reset_manager_silent(struct qaic_device *qdev)
{
	unsigned long last = READ_ONCE(qdev->last_answer);

	if (!last) {
		/* Nothing answered since the card came up: count from now */
		WRITE_ONCE(qdev->last_answer, jiffies);
		return;
	}
	if (time_before(jiffies, last + QAIC_RESET_SILENT_CALLS * qaic_cntl_answer_timeout()))
		return;
	WRITE_ONCE(qdev->last_answer, jiffies);
	qaic_reset_card(qdev, "the card's manager did not answer for "
			__stringify(QAIC_RESET_SILENT_CALLS) " answer timeouts");
}

/**
 * qaic_reset_manager_answered() - A MANAGE message got an answer.
 * @qdev: The card.
 */
void qaic_reset_manager_answered(struct qaic_device *qdev)
{
	WRITE_ONCE(qdev->last_answer, jiffies);
}

/* Stops the card before a reset; nothing to do once it was unplugged. */
static void qaic_reset_stop(struct qaic_device *qdev, const char *why)
{
	if (drm_dev_is_unplugged(&qdev->drm))
		return;
	drm_info(&qdev->drm, "%s: stopping the card\n", why);
	trace_qaic_card_state(qdev, "stopped", why);
	qaic_mhi_stop(qdev);
	/* The rings are freed next: the card must not reach them any more. */
	pci_clear_master(qdev->pdev);
	qaic_owner_release_all(qdev);
}

/* Powers the card up again after a reset. */
static void qaic_reset_start(struct qaic_device *qdev, const char *why)
{
	/* System sleep stopped it: .complete boots it, not a reset meanwhile. */
	if (drm_dev_is_unplugged(&qdev->drm) || qdev->pm_stopped)
		return;
	drm_info(&qdev->drm, "%s: powering the card up again\n", why);
	trace_qaic_card_state(qdev, "booting", why);
	pci_set_master(qdev->pdev);
	qaic_mhi_start(qdev);
}

static pci_ers_result_t qaic_pci_error_detected(struct pci_dev *pdev,
						pci_channel_state_t state)
{
	struct qaic_device *qdev = pci_get_drvdata(pdev);

	drm_err(&qdev->drm, "PCI error, channel state %d\n", state);
	qaic_reset_stop(qdev, "PCI error");
	if (state == pci_channel_io_perm_failure)
		return PCI_ERS_RESULT_DISCONNECT;
	return PCI_ERS_RESULT_NEED_RESET;
}

/* The link works, but what the card did meanwhile is unknown: reset it. */
static pci_ers_result_t qaic_pci_mmio_enabled(struct pci_dev *pdev)
{
	return PCI_ERS_RESULT_NEED_RESET;
}

static pci_ers_result_t qaic_pci_slot_reset(struct pci_dev *pdev)
{
	pci_restore_state(pdev);
	/* Restoring used the saved state up: keep it for the next reset. */
	pci_save_state(pdev);
	return PCI_ERS_RESULT_RECOVERED;
}

static void qaic_pci_resume(struct pci_dev *pdev)
{
	qaic_reset_start(pci_get_drvdata(pdev), "PCI error recovered");
}

static void qaic_pci_reset_prepare(struct pci_dev *pdev)
{
	qaic_reset_stop(pci_get_drvdata(pdev), "function reset");
}

static void qaic_pci_reset_done(struct pci_dev *pdev)
{
	qaic_reset_start(pci_get_drvdata(pdev), "function reset done");
}

/* Is a job of any DBC not done? */
static bool qaic_pm_busy(struct qaic_device *qdev)
{
	unsigned int i;

	guard(mutex)(&qdev->dbc_lock);
	for (i = 0; i < QAIC_NUM_DBC; i++) {
		struct qaic_dbc *dbc = &qdev->dbc[i];

		guard(mutex)(&dbc->lock);
		if (qaic_queue_busy(dbc)) {
			drm_info(&qdev->drm, "suspend refused: DBC %u has work queued\n", i);
			return true;
		}
	}
	return false;
}

static int qaic_pm_suspend(struct device *dev)
{
	struct qaic_device *qdev = pci_get_drvdata(to_pci_dev(dev));

	if (qaic_pm_busy(qdev))
		return -EBUSY;
	/* Userspace is frozen: no work can come in before the card stops. */
	qaic_reset_stop(qdev, "suspend");
	qdev->pm_stopped = true;
	return 0;
}

/*
 * The card is powered up once every device resumed, not at resume: the
 * devices of its MHI channels appear as it boots, under the MHI
 * controller's device, which resumes after ours. Also called when a
 * suspend failed, maybe before ours stopped the card.
 */
static void qaic_pm_complete(struct device *dev)
{
	struct qaic_device *qdev = pci_get_drvdata(to_pci_dev(dev));

	if (!qdev->pm_stopped)
		return;
	qdev->pm_stopped = false;
	qaic_reset_start(qdev, "resume");
}

/*
 * Suspend to RAM or idle, and hibernation: the card is stopped before the
 * system sleeps (.suspend), before the image is made (.freeze) and before
 * the machine powers off with it (.poweroff), and booted again by
 * .complete, which follows resume, thaw (the image made, before it is
 * written) and restore (the image loaded) alike. A card's state never
 * survives in an image: the card boots afresh. The kernel that loads the
 * image freezes the card it may have booted before handing over.
 */
const struct dev_pm_ops qaic_pm_ops = {
	.suspend = qaic_pm_suspend,
	.freeze = qaic_pm_suspend,
	.poweroff = qaic_pm_suspend,
	.complete = qaic_pm_complete,
};

const struct pci_error_handlers qaic_pci_err_handlers = {
	.error_detected = qaic_pci_error_detected,
	.mmio_enabled = qaic_pci_mmio_enabled,
	.slot_reset = qaic_pci_slot_reset,
	.resume = qaic_pci_resume,
	.reset_prepare = qaic_pci_reset_prepare,
	.reset_done = qaic_pci_reset_done,
};

/* pcie_do_recovery()'s order of the callbacks, for one error. */
static void qaic_reset_recover(struct pci_dev *pdev, pci_channel_state_t state)
{
	pci_ers_result_t res;

	res = qaic_pci_error_detected(pdev, state);
	if (res == PCI_ERS_RESULT_CAN_RECOVER)
		res = qaic_pci_mmio_enabled(pdev);
	if (res != PCI_ERS_RESULT_NEED_RESET)
		return;
	/* Where the core would reset the slot */
	if (pcie_reset_flr(pdev, PCI_RESET_DO_RESET))
		pci_dbg(pdev, "no function-level reset: the card is not reset\n");
	if (qaic_pci_slot_reset(pdev) == PCI_ERS_RESULT_RECOVERED)
		qaic_pci_resume(pdev);
}

static ssize_t qaic_reset_pci_error_write(struct file *f, const char __user *ubuf,
					  size_t len, loff_t *pos)
{
	struct qaic_device *qdev = f->private_data;
	struct pci_dev *pdev = qdev->pdev;
	pci_channel_state_t state;
	char buf[16];

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	if (sysfs_streq(buf, "normal"))
		state = pci_channel_io_normal;
	else if (sysfs_streq(buf, "frozen"))
		state = pci_channel_io_frozen;
	else
		return -EINVAL;

	/* Not device_lock(): remove holds it while it removes this file. */
	if (!device_trylock(&pdev->dev))
		return -EBUSY;
	qaic_reset_recover(pdev, state);
	device_unlock(&pdev->dev);
	return len;
}

static const struct file_operations qaic_reset_pci_error_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = qaic_reset_pci_error_write,
	.llseek = noop_llseek,
};

/**
 * qaic_reset_debugfs_init() - The test path of PCI error recovery.
 * @qdev: The card, before its DRM device registers.
 */
void qaic_reset_debugfs_init(struct qaic_device *qdev)
{
	debugfs_create_file("pci_error", 0200, qdev->drm.debugfs_root, qdev,
			    &qaic_reset_pci_error_fops);
}
