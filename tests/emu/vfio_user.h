/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vfio-user server (docs/interop/vfio-user.rst in QEMU, protocol 0.0 as
 * QEMU 11.1's vfio-user-pci client speaks it) for one client at a time,
 * bound to an emu_device: the client's REGION_READ/WRITE become config
 * and BAR accesses, its DMA_MAPs become the device's guest memory (keyed
 * by IOVA), and device interrupts are written to the eventfds it passed
 * with SET_IRQS.
 *
 * Every message is untrusted. A malformed request gets an error reply; a
 * message whose framing cannot be trusted (size below the header or past
 * our limit, a read that fails mid-message) drops the connection.
 */
#ifndef QAIC_EMU_VFIO_USER_H
#define QAIC_EMU_VFIO_USER_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "device.h"
#include "guest_mem.h"

/* Message header; host byte order. */
struct vfu_hdr {
	uint16_t id;
	uint16_t cmd;
	uint32_t size;		/* header included */
	uint32_t flags;
	uint32_t error;		/* errno, with VFU_F_ERROR */
};

#define VFU_HDR_SIZE		sizeof(struct vfu_hdr)

#define VFU_F_TYPE_MASK		0xfu
#define VFU_F_TYPE_CMD		0x0u
#define VFU_F_TYPE_REPLY	0x1u
#define VFU_F_NO_REPLY		(1u << 4)
#define VFU_F_ERROR		(1u << 5)

enum vfu_cmd {
	VFU_VERSION = 1,
	VFU_DMA_MAP = 2,
	VFU_DMA_UNMAP = 3,
	VFU_DEVICE_GET_INFO = 4,
	VFU_DEVICE_GET_REGION_INFO = 5,
	VFU_DEVICE_GET_REGION_IO_FDS = 6,
	VFU_DEVICE_GET_IRQ_INFO = 7,
	VFU_DEVICE_SET_IRQS = 8,
	VFU_REGION_READ = 9,
	VFU_REGION_WRITE = 10,
	VFU_DMA_READ = 11,
	VFU_DMA_WRITE = 12,
	VFU_DEVICE_RESET = 13,
	VFU_REGION_WRITE_MULTI = 15,
	VFU_DEVICE_FEATURE = 16,
	VFU_MIG_DATA_READ = 17,
	VFU_MIG_DATA_WRITE = 18,
};

/* Payloads (the <linux/vfio.h> structs are used where they exist). */
struct vfu_version {
	uint16_t major;
	uint16_t minor;
	/* NUL-terminated JSON capabilities follow */
};

struct vfu_dma_map {
	uint32_t argsz;
	uint32_t flags;		/* VFU_DMA_READ_OK | VFU_DMA_WRITE_OK */
	uint64_t offset;	/* into the fd, if one came */
	uint64_t addr;		/* IOVA */
	uint64_t size;
};

struct vfu_dma_unmap {
	uint32_t argsz;
	uint32_t flags;		/* VFIO_DMA_UNMAP_FLAG_ALL */
	uint64_t addr;
	uint64_t size;
};

#define VFU_DMA_READ_OK		(1u << 0)
#define VFU_DMA_WRITE_OK	(1u << 1)

struct vfu_region_access {
	uint64_t offset;
	uint32_t region;
	uint32_t count;
	/* data follows for writes and read replies */
};

/* DMA_READ/DMA_WRITE, server to client: data at byte 32 of the message. */
struct vfu_dma_rw {
	uint64_t addr;
	uint64_t count;
};

/* What we offer in VERSION (and hold ourselves to). */
#define VFU_MAX_MSG_FDS		16
#define VFU_MAX_DATA_XFER	(1u << 20)
#define VFU_PGSIZES		4096
#define VFU_MAX_DMA_MAPS	65536
#define VFU_MAX_MSG		(VFU_HDR_SIZE + 16 + VFU_MAX_DATA_XFER)
/*
 * A DMA by messages waits for its reply serving client requests, which
 * may start DMA by messages in turn: this deep at most.
 */
#define VFU_MAX_NESTED_DMA	4
#define VFU_RECV_TIMEOUT_SEC	10

struct vfu_stats {
	uint64_t messages;		/* requests from the client */
	uint64_t bad_requests;		/* answered with an error */
	uint64_t unsupported;		/* ENOTSUP, part of bad_requests */
	uint64_t protocol_errors;	/* broken framing: connection dropped */
	uint64_t dma_maps;
	/*
	 * DMA_MAPs refused because the table holds VFU_MAX_DMA_MAPS already
	 * (each region is an mmap() of its own, and the kernel's
	 * vm.max_map_count is about as many). A DMA the card then makes into
	 * such a range is a fault here although the guest mapped it.
	 */
	uint64_t dma_maps_refused;
	uint64_t dma_unmaps;
	uint64_t dma_msgs;		/* DMA_READ/WRITE we sent */
	uint64_t irqs;			/* eventfd writes */
	uint64_t resets;		/* DEVICE_RESET */
};

struct vfu_wait;

struct vfu_server {
	int listen_fd;
	int sock_fd;
	struct emu_device *dev;
	struct guest_mem mem;
	bool version_done;
	bool broken;			/* drop the connection when back in dispatch */
	uint32_t client_max_fds;	/* from the client's VERSION */
	uint32_t client_max_xfer;
	int msi_fds[EMU_NUM_VECTORS];
	int msix_fds[EMU_NUM_VECTORS];
	uint16_t next_id;		/* of our DMA_READ/WRITE requests */
	unsigned int nr_waits;
	struct vfu_wait *waits[VFU_MAX_NESTED_DMA];
	struct vfu_stats stats;
};

/*
 * Bind @s to @dev: the device takes its guest memory and irq sink from
 * @s, sends interrupts by vector and logs DMA faults loudly.
 */
void vfu_init(struct vfu_server *s, struct emu_device *dev);

/* Bind and listen on @path (replacing a stale socket). 0 or -errno. */
int vfu_listen(struct vfu_server *s, const char *path);
/* Serve an already connected socket (tests, and after accept). Takes @fd. */
void vfu_attach(struct vfu_server *s, int fd);
bool vfu_connected(const struct vfu_server *s);
/* Close the connection and listener, every fd received, unmap all. */
void vfu_close(struct vfu_server *s);

/* What to poll: the listen socket until a client comes, then it. */
unsigned int vfu_pollfds(const struct vfu_server *s, struct pollfd *pfds,
			 unsigned int max);
/*
 * Handle what poll() reported. Returns 0 to keep serving, or -ECONNRESET
 * once the client has gone away (or broke the framing).
 */
int vfu_dispatch(struct vfu_server *s, const struct pollfd *pfds,
		 unsigned int nr);
/* Read and handle one message. 0, or -errno when the connection is done. */
int vfu_handle_message(struct vfu_server *s);

/* "key value" lines, keys prefixed "vfu_". */
void vfu_stats_print(const struct vfu_stats *st, FILE *out);

#endif /* QAIC_EMU_VFIO_USER_H */
