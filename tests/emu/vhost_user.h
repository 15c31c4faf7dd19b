/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vhost-user backend ("slave") over a UNIX stream socket, and split
 * virtqueue access for the layer above it.
 *
 * Only what UML's virtio_uml.c frontend uses is implemented: feature and
 * protocol-feature negotiation, SET_MEM_TABLE, vring setup, eventfd kicks
 * (and in-band VRING_KICK), pipe/eventfd calls (and in-band VRING_CALL over
 * the backend request channel), REPLY_ACK. Everything read from the socket
 * and from the rings is treated as untrusted.
 */
#ifndef QAIC_EMU_VHOST_USER_H
#define QAIC_EMU_VHOST_USER_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/uio.h>

#include "guest_mem.h"

#define VU_MAX_VRINGS		8
#define VU_MAX_QUEUE_SIZE	32768	/* split ring limit */
#define VU_CHAIN_MAX_IOV	16	/* virt-pci uses at most 3 */
#define VU_MAX_POLLFDS		(2 + VU_MAX_VRINGS)

/*
 * Request numbers and protocol feature bits, from the vhost-user spec
 * (docs/interop/vhost-user.rst in QEMU) and arch/um/drivers/vhost_user.h.
 */
enum vu_request {
	VU_GET_FEATURES = 1,
	VU_SET_FEATURES = 2,
	VU_SET_OWNER = 3,
	VU_RESET_OWNER = 4,
	VU_SET_MEM_TABLE = 5,
	VU_SET_LOG_BASE = 6,
	VU_SET_LOG_FD = 7,
	VU_SET_VRING_NUM = 8,
	VU_SET_VRING_ADDR = 9,
	VU_SET_VRING_BASE = 10,
	VU_GET_VRING_BASE = 11,
	VU_SET_VRING_KICK = 12,
	VU_SET_VRING_CALL = 13,
	VU_SET_VRING_ERR = 14,
	VU_GET_PROTOCOL_FEATURES = 15,
	VU_SET_PROTOCOL_FEATURES = 16,
	VU_GET_QUEUE_NUM = 17,
	VU_SET_VRING_ENABLE = 18,
	VU_SET_BACKEND_REQ_FD = 21,	/* a.k.a. SET_SLAVE_REQ_FD */
	VU_GET_CONFIG = 24,
	VU_SET_CONFIG = 25,
	VU_VRING_KICK = 35,
};

/* Requests the backend sends on the backend request channel. */
#define VU_BACKEND_VRING_CALL		4

#define VU_F_PROTOCOL_FEATURES		30	/* virtio feature bit */
#define VU_PROTOCOL_F_MQ		0
#define VU_PROTOCOL_F_REPLY_ACK		3
#define VU_PROTOCOL_F_BACKEND_REQ	5	/* a.k.a. SLAVE_REQ */
#define VU_PROTOCOL_F_CONFIG		9
#define VU_PROTOCOL_F_INBAND_NOTIFICATIONS 14

#define VU_VERSION			0x1
#define VU_FLAG_VERSION_MASK		0x3
#define VU_FLAG_REPLY			(1u << 2)
#define VU_FLAG_NEED_REPLY		(1u << 3)

/* SET_VRING_KICK/CALL/ERR payload: ring index plus "no fd" flag. */
#define VU_VRING_INDEX_MASK		0xffu
#define VU_VRING_NOFD_MASK		(1u << 8)

#define VU_HDR_SIZE			12
#define VU_MAX_PAYLOAD			512
#define VU_MAX_FDS			8

struct vu_vring {
	unsigned int index;
	uint32_t num;
	uint64_t desc_uva, avail_uva, used_uva;
	bool addr_set;
	/* Resolved from the uvas through the memory table; NULL if invalid. */
	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	uint16_t last_avail;	/* next avail ring slot to consume */
	uint16_t used_idx;	/* next used ring slot to fill */
	int kick_fd;		/* -1: none, or in-band kicks */
	int call_fd;		/* -1: none, or in-band calls */
	int err_fd;
	bool started;		/* SET_VRING_KICK received */
	bool enabled;		/* SET_VRING_ENABLE 1 */
	bool broken;		/* the guest corrupted the ring; ignored */
};

/* One descriptor chain: device-readable part first, then device-writable. */
struct vu_chain {
	uint16_t head;
	unsigned int nr_out, nr_in;
	struct iovec out[VU_CHAIN_MAX_IOV];
	struct iovec in[VU_CHAIN_MAX_IOV];
	uint64_t out_len, in_len;
};

struct vu_stats {
	uint64_t messages;
	uint64_t protocol_errors;
	uint64_t bad_chains;
	uint64_t broken_rings;
	uint64_t kicks;
	uint64_t calls;
};

struct vu_dev;

struct vu_ops {
	/* The frontend made buffers available on @vr (or enabled it). */
	void (*vring_kick)(void *ctx, struct vu_dev *vu, struct vu_vring *vr);
};

struct vu_dev {
	int listen_fd;
	int sock_fd;
	int backend_req_fd;
	unsigned int nr_vrings;
	uint64_t features;		/* acked by the frontend */
	uint64_t protocol_features;	/* acked by the frontend */
	struct guest_mem mem;
	struct vu_vring vrings[VU_MAX_VRINGS];
	const struct vu_ops *ops;
	void *ctx;
	struct vu_stats stats;
	bool verbose;
};

/* Features offered to the frontend. */
uint64_t vu_offered_features(void);
uint64_t vu_offered_protocol_features(void);

void vu_init(struct vu_dev *vu, unsigned int nr_vrings,
	     const struct vu_ops *ops, void *ctx);

/* Bind and listen on @path (replacing a stale socket). 0 or -errno. */
int vu_listen(struct vu_dev *vu, const char *path);
/* Serve an already connected socket (tests). Takes @fd over. */
void vu_attach(struct vu_dev *vu, int fd);
bool vu_connected(const struct vu_dev *vu);
/* Close the connection, every fd received and unmap guest memory. */
void vu_close(struct vu_dev *vu);

/* What to poll: listen socket or connection, and the kick eventfds. */
unsigned int vu_pollfds(const struct vu_dev *vu, struct pollfd *pfds,
			unsigned int max);
/*
 * Handle what poll() reported for the fds from vu_pollfds(). Returns 0 to
 * keep serving, or -ECONNRESET once the frontend has gone away (or broke
 * the protocol beyond repair).
 */
int vu_dispatch(struct vu_dev *vu, const struct pollfd *pfds,
		unsigned int nr);
/* Read and handle one message from the connection. 0 or -errno. */
int vu_handle_message(struct vu_dev *vu);

/* Virtqueue access for the device layer. */
struct vu_vring *vu_vring(struct vu_dev *vu, unsigned int index);
bool vu_vring_ready(const struct vu_vring *vr);
/* Next well-formed chain: 1, or 0 when the ring is empty or unusable. */
int vu_vring_pop(struct vu_dev *vu, struct vu_vring *vr, struct vu_chain *c);
/* Return @head to the frontend with @len bytes written. */
void vu_vring_push(struct vu_vring *vr, uint16_t head, uint32_t len);
/* Tell the frontend about used buffers (unless it asked not to). */
void vu_vring_notify(struct vu_dev *vu, struct vu_vring *vr);

/* "key value" lines, keys prefixed "vu_". */
void vu_stats_print(const struct vu_stats *s, FILE *out);

/* Scatter/gather helpers: return the number of bytes copied. */
uint64_t vu_iov_to_buf(const struct iovec *iov, unsigned int nr, void *buf,
		       uint64_t len);
uint64_t vu_buf_to_iov(const struct iovec *iov, unsigned int nr,
		       const void *buf, uint64_t len);

#endif /* QAIC_EMU_VHOST_USER_H */
