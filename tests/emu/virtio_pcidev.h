/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The virtio_pcidev protocol (include/uapi/linux/virtio_pcidev.h) that
 * UML's virt-pci speaks over two virtqueues:
 *   - cmd (queue 0): config and BAR accesses from the guest. Each chain is
 *     a message (header + write data) followed, for reads, by a
 *     device-writable buffer for the data read;
 *   - irq (queue 1): empty buffers the guest posts; the device fills one
 *     with an MSI message to interrupt the guest.
 */
#ifndef QAIC_EMU_VIRTIO_PCIDEV_H
#define QAIC_EMU_VIRTIO_PCIDEV_H

#include <linux/virtio_pcidev.h>
#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "vhost_user.h"

#define VPCI_CMD_VQ		0
#define VPCI_IRQ_VQ		1
#define VPCI_NR_VQS		2

/* Largest BAR read/write we serve in one message: the size of BAR4. */
#define VPCI_MAX_DATA		EMU_BAR4_SIZE
#define VPCI_HDR_SIZE		sizeof(struct virtio_pcidev_msg)
/* MSIs waiting for the guest to post irq buffers. */
#define VPCI_IRQ_BACKLOG	64

struct vpci {
	struct emu_device *dev;
	struct vu_dev *vu;
	struct emu_msi_msg backlog[VPCI_IRQ_BACKLOG];
	unsigned int backlog_len;
	uint8_t req[VPCI_HDR_SIZE + VPCI_MAX_DATA];	/* gathered request */
	uint8_t reply[VPCI_MAX_DATA];
};

/* Connect @dev and @vu: cmd/irq queue handling and the device's irq sink. */
void vpci_init(struct vpci *p, struct emu_device *dev, struct vu_dev *vu);

/* The vu_ops to pass to vu_init(), with the struct vpci as context. */
extern const struct vu_ops vpci_vu_ops;

/*
 * Execute one cmd-queue message of @req_len bytes against @dev. Read data
 * goes to @reply (at most @reply_cap bytes). Returns the number of reply
 * bytes written; malformed messages are counted in cmd_bad.
 */
size_t vpci_handle_msg(struct emu_device *dev, const void *req,
		       size_t req_len, void *reply, size_t reply_cap);

/* Serve everything the guest has queued on the cmd queue. */
void vpci_process_cmd_queue(struct vpci *p);

/* Deliver backlogged MSIs into irq buffers the guest has posted. */
void vpci_flush_irqs(struct vpci *p);

#endif /* QAIC_EMU_VIRTIO_PCIDEV_H */
