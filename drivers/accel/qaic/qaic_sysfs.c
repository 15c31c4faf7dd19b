// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic DBC state in sysfs
 *
 * Each DMA Bridge Channel's state is a file of the accel device,
 * /sys/class/accel/accelN/dbc<N>_state, and every change of it is a
 * KOBJ_CHANGE uevent of that device carrying DBC_ID=<N> and DBC_STATE=<state>,
 * with upstream Linux's names and numbers (&enum qaic_dbc_state): a
 * runtime learns that a DBC it used went through a subsystem restart, or
 * was released under it by a reset of the card, without polling.
 *
 * The state is derived, not stored: a restart step if one is under way,
 * else ASSIGNED while a file holds the DBC, else IDLE. Whoever changes
 * what it derives from calls qaic_dbc_state_changed(), which announces the
 * new state if it differs from the last one announced.
 *
 * The card is not trusted to be sparing: the changes it causes (every
 * step of a subsystem restart, and the IDLE that ends one) share a budget
 * of %QAIC_SSR_UEVENT_BURST uevents per card per %QAIC_SSR_LIMIT_INTERVAL
 * (16 per 5 s). A change past it is held back, not lost: once the next
 * interval begins, a delayed work announces the current state of every
 * DBC held back, if it still differs from the last one announced, from
 * the same budget (or waits for the interval after). A listener thus
 * always ends up with what dbc<N>_state shows, and misses at most steps
 * in between. The user's own changes (activate, deactivate, close) and
 * those of a reset of the whole card are announced at once, as before:
 * they do not come from the card's restarts. The trace event
 * qaic_dbc_state goes with each uevent.
 */

#include <linux/cleanup.h>
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/kobject.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>

#include "qaic_cntl.h"
#include "qaic_drv.h"
#include "qaic_sysfs.h"
#include "qaic_trace.h"

/**
 * qaic_dbc_state() - What a DBC's state file shows.
 * @dbc: The DBC; read without locks by sysfs, so a value may be stale.
 *
 * Return: the &enum qaic_dbc_state.
 */
enum qaic_dbc_state qaic_dbc_state(const struct qaic_dbc *dbc)
{
	u8 ssr = READ_ONCE(dbc->ssr);

	if (ssr)
		return ssr;
	return READ_ONCE(dbc->owner) ? QAIC_DBC_ASSIGNED : QAIC_DBC_IDLE;
}

/*
 * Takes one uevent of the card's budget for this interval; with none left,
 * holds @dbc_id's change back for the work, queued for the interval's end.
 */
static bool qaic_card_uevent_take_locked(struct qaic_device *qdev, u32 dbc_id)
{
	unsigned long now = jiffies;

	lockdep_assert_held(&qdev->uevent_lock);

	if (time_after_eq(now, qdev->uevent_begin + QAIC_SSR_LIMIT_INTERVAL)) {
		qdev->uevent_begin = now;
		qdev->uevent_sent = 0;
	}
	if (qdev->uevent_sent < QAIC_SSR_UEVENT_BURST) {
		qdev->uevent_sent++;
		return true;
	}
	__set_bit(dbc_id, &qdev->uevent_held);
	/* A work already queued runs at the same end, or earlier. */
	queue_delayed_work(system_wq, &qdev->uevent_work,
			   qdev->uevent_begin + QAIC_SSR_LIMIT_INTERVAL - now);
	return false;
}

/*
 * Announces @dbc_id's state if it changed; @by_card: the card caused the
 * change, which counts against its budget (a restart step always does).
 */
static void qaic_dbc_announce(struct qaic_device *qdev, u32 dbc_id, bool by_card)
{
	struct qaic_dbc *dbc = &qdev->dbc[dbc_id];
	char id_env[16], state_env[16];
	char *envp[3];
	enum qaic_dbc_state state;
	bool send = true;
	int idx;

	lockdep_assert_held(&dbc->lock);

	state = qaic_dbc_state(dbc);
	if (state == dbc->reported)
		return;
	/* Nobody listens before the files exist, nor after unplug. */
	if (!READ_ONCE(qdev->sysfs_added) || !drm_dev_enter(&qdev->drm, &idx)) {
		dbc->reported = state;
		trace_qaic_dbc_state(qdev, dbc_id, state);
		return;
	}
	if (by_card || state >= QAIC_DBC_BEFORE_SHUTDOWN) {
		scoped_guard(spinlock, &qdev->uevent_lock)
			send = qaic_card_uevent_take_locked(qdev, dbc_id);
	}
	if (!send) {
		drm_dev_exit(idx);
		return;
	}
	dbc->reported = state;
	trace_qaic_dbc_state(qdev, dbc_id, state);

	snprintf(id_env, sizeof(id_env), "DBC_ID=%u", dbc_id);
	snprintf(state_env, sizeof(state_env), "DBC_STATE=%u", state);
	envp[0] = id_env;
	envp[1] = state_env;
	envp[2] = NULL;
	kobject_uevent_env(&qdev->drm.accel->kdev->kobj, KOBJ_CHANGE, envp);
	drm_dev_exit(idx);
}

/**
 * qaic_dbc_state_changed() - Announce a DBC's state if it changed.
 * @qdev: The card.
 * @dbc_id: The DBC, whose &qaic_dbc.lock is held.
 *
 * Sends nothing once the DRM device is unplugged: its accel device is
 * gone from sysfs, and with it whoever listened. A restart step counts
 * against the card's budget, as qaic_dbc_state_changed_by_card().
 */
void qaic_dbc_state_changed(struct qaic_device *qdev, u32 dbc_id)
{
	qaic_dbc_announce(qdev, dbc_id, false);
}

/**
 * qaic_dbc_state_changed_by_card() - Announce a change the card caused.
 * @qdev: The card.
 * @dbc_id: The DBC, whose &qaic_dbc.lock is held.
 *
 * As qaic_dbc_state_changed(), within the card's budget of uevents: past
 * it the change is announced once an interval allows.
 */
void qaic_dbc_state_changed_by_card(struct qaic_device *qdev, u32 dbc_id)
{
	qaic_dbc_announce(qdev, dbc_id, true);
}

/* Announces what the card's budget held back, once an interval allows. */
static void qaic_dbc_uevent_work(struct work_struct *work)
{
	struct qaic_device *qdev = container_of(to_delayed_work(work), struct qaic_device,
						uevent_work);
	unsigned long held;
	unsigned int i;
	int idx;

	if (!drm_dev_enter(&qdev->drm, &idx))
		return;
	scoped_guard(spinlock, &qdev->uevent_lock) {
		held = qdev->uevent_held;
		qdev->uevent_held = 0;
	}
	for_each_set_bit(i, &held, QAIC_NUM_DBC) {
		guard(mutex)(&qdev->dbc[i].lock);
		qaic_dbc_announce(qdev, i, true);
	}
	drm_dev_exit(idx);
}

static void qaic_dbc_uevents_fini(void *data)
{
	struct qaic_device *qdev = data;

	cancel_delayed_work_sync(&qdev->uevent_work);
}

/**
 * qaic_card_announce() - Announce that the card came up or went down.
 * @qdev: The card, whose control path just changed state.
 *
 * A KOBJ_ONLINE uevent of the accel device when its control path is up
 * (MANAGE works), a KOBJ_OFFLINE one when it went down (a crash, a reset,
 * the card's manager refused), as upstream Linux announces them: a
 * runtime learns without polling that it must set its DBCs up again. Only
 * changes of what the last uevent said are announced, in order: whoever
 * changes the control path's state calls this afterwards, and the state
 * is read here, under &qaic_device.online_lock. No budget: unlike an SSR
 * message, each change costs the card a boot.
 */
void qaic_card_announce(struct qaic_device *qdev)
{
	bool online;
	int idx;

	guard(mutex)(&qdev->online_lock);
	online = qaic_cntl_is_up(qdev->cntl);
	if (online == qdev->online_reported)
		return;
	qdev->online_reported = online;
	/* Nobody listens before the accel device is registered, nor after unplug. */
	if (!READ_ONCE(qdev->drm.registered) || !drm_dev_enter(&qdev->drm, &idx))
		return;
	kobject_uevent(&qdev->drm.accel->kdev->kobj, online ? KOBJ_ONLINE : KOBJ_OFFLINE);
	drm_dev_exit(idx);
}

/**
 * qaic_dbc_uevents_init() - The card's uevents: ONLINE and OFFLINE, and the
 *			      budget of DBC_STATE ones.
 * @qdev: The card being probed, before its MHI channels can deliver.
 *
 * The work that announces what the budget held back is cancelled at
 * unbind, after the DRM device is unplugged (it then does nothing).
 *
 * Return: 0 or a negative errno.
 */
int qaic_dbc_uevents_init(struct qaic_device *qdev)
{
	int ret;

	ret = drmm_mutex_init(&qdev->drm, &qdev->online_lock);
	if (ret)
		return ret;
	spin_lock_init(&qdev->uevent_lock);
	/* The first change the card causes opens an interval. */
	qdev->uevent_begin = jiffies - QAIC_SSR_LIMIT_INTERVAL;
	INIT_DELAYED_WORK(&qdev->uevent_work, qaic_dbc_uevent_work);
	return devm_add_action_or_reset(&qdev->pdev->dev, qaic_dbc_uevents_fini, qdev);
}

struct qaic_dbc_attr {
	struct device_attribute attr;
	u32 dbc_id;
};

static ssize_t qaic_dbc_state_show(struct device *kdev, struct device_attribute *attr, char *buf)
{
	struct qaic_dbc_attr *a = container_of(attr, struct qaic_dbc_attr, attr);
	struct drm_minor *minor = dev_get_drvdata(kdev);
	struct qaic_device *qdev = to_qaic_device(minor->dev);

	return sysfs_emit(buf, "%u\n", qaic_dbc_state(&qdev->dbc[a->dbc_id]));
}

#define QAIC_DBC_STATE_ATTR(n)						\
	static struct qaic_dbc_attr qaic_dbc##n##_state = {		\
		.attr = __ATTR(dbc##n##_state, 0444, qaic_dbc_state_show, NULL), \
		.dbc_id = (n),						\
	}

QAIC_DBC_STATE_ATTR(0);
QAIC_DBC_STATE_ATTR(1);
QAIC_DBC_STATE_ATTR(2);
QAIC_DBC_STATE_ATTR(3);
QAIC_DBC_STATE_ATTR(4);
QAIC_DBC_STATE_ATTR(5);
QAIC_DBC_STATE_ATTR(6);
QAIC_DBC_STATE_ATTR(7);
QAIC_DBC_STATE_ATTR(8);
QAIC_DBC_STATE_ATTR(9);
QAIC_DBC_STATE_ATTR(10);
QAIC_DBC_STATE_ATTR(11);
QAIC_DBC_STATE_ATTR(12);
QAIC_DBC_STATE_ATTR(13);
QAIC_DBC_STATE_ATTR(14);
QAIC_DBC_STATE_ATTR(15);

static struct attribute *qaic_dbc_state_attrs[] = {
	&qaic_dbc0_state.attr.attr, &qaic_dbc1_state.attr.attr,
	&qaic_dbc2_state.attr.attr, &qaic_dbc3_state.attr.attr,
	&qaic_dbc4_state.attr.attr, &qaic_dbc5_state.attr.attr,
	&qaic_dbc6_state.attr.attr, &qaic_dbc7_state.attr.attr,
	&qaic_dbc8_state.attr.attr, &qaic_dbc9_state.attr.attr,
	&qaic_dbc10_state.attr.attr, &qaic_dbc11_state.attr.attr,
	&qaic_dbc12_state.attr.attr, &qaic_dbc13_state.attr.attr,
	&qaic_dbc14_state.attr.attr, &qaic_dbc15_state.attr.attr,
	NULL
};

static_assert(ARRAY_SIZE(qaic_dbc_state_attrs) == QAIC_NUM_DBC + 1);

static const struct attribute_group qaic_dbc_state_group = {
	.attrs = qaic_dbc_state_attrs,
};

/**
 * qaic_sysfs_init() - Add the dbc<N>_state files to the accel device.
 * @qdev: The card, its DRM device registered.
 *
 * The card works without them, so a failure is only logged.
 */
void qaic_sysfs_init(struct qaic_device *qdev)
{
	int ret;

	ret = sysfs_create_group(&qdev->drm.accel->kdev->kobj, &qaic_dbc_state_group);
	if (ret) {
		drm_warn(&qdev->drm, "no dbc<N>_state files: %d\n", ret);
		return;
	}
	qdev->sysfs_added = true;
}

/**
 * qaic_sysfs_fini() - Remove the dbc<N>_state files, before unplug.
 * @qdev: The card.
 */
void qaic_sysfs_fini(struct qaic_device *qdev)
{
	if (!qdev->sysfs_added)
		return;
	WRITE_ONCE(qdev->sysfs_added, false);
	sysfs_remove_group(&qdev->drm.accel->kdev->kobj, &qaic_dbc_state_group);
}
