// SPDX-License-Identifier: GPL-2.0-only
/*
 * vhost-user backend over a UNIX socket, and split virtqueues.
 *
 * The frontend is UML's virtio_uml.c. It connects once (no retry), sends
 * SET_OWNER, GET_FEATURES, GET/SET_PROTOCOL_FEATURES, SET_BACKEND_REQ_FD,
 * SET_FEATURES, then per virtqueue SET_MEM_TABLE (once), SET_VRING_CALL,
 * SET_VRING_NUM, SET_VRING_BASE, SET_VRING_ADDR, and finally SET_VRING_KICK
 * and SET_VRING_ENABLE. BACKEND_REQ must be offered: without it
 * virtio_uml requests its vring interrupts on IRQ 0 and probe fails with
 * -EBUSY.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "unix_sock.h"
#include "vhost_user.h"

/* Wire format (vhost-user spec); all fields in host byte order. */
struct vu_hdr {
	uint32_t request;
	uint32_t flags;
	uint32_t size;
} __attribute__((packed));

struct vu_vring_state {
	uint32_t index;
	uint32_t num;
} __attribute__((packed));

struct vu_vring_addr {
	uint32_t index;
	uint32_t flags;
	uint64_t desc;
	uint64_t used;
	uint64_t avail;
	uint64_t log;
} __attribute__((packed));

struct vu_mem_region {
	uint64_t gpa;
	uint64_t size;
	uint64_t uva;
	uint64_t mmap_offset;
} __attribute__((packed));

struct vu_mem_table {
	uint32_t num;
	uint32_t padding;
	struct vu_mem_region regions[VU_MAX_FDS];
} __attribute__((packed));

struct vu_msg {
	struct vu_hdr hdr;
	union {
		uint64_t u64;
		struct vu_vring_state state;
		struct vu_vring_addr addr;
		struct vu_mem_table mem;
		uint8_t raw[VU_MAX_PAYLOAD];
	} payload;
} __attribute__((packed));

/*
 * A received message, the file descriptors that came with it, and the
 * reply a GET_* handler prepares (sent by vu_handle_message()).
 */
struct vu_rx {
	struct vu_msg msg;
	int fds[VU_MAX_FDS];
	unsigned int nr_fds;
	uint32_t reply_size;
	bool has_reply;
	union {
		uint64_t u64;
		struct vu_vring_state state;
	} reply;
};

/* How long a started message may take to arrive in full. */
#define VU_RECV_TIMEOUT_SEC 5

static void vu_log(const struct vu_dev *vu, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void vu_log(const struct vu_dev *vu, const char *fmt, ...)
{
	va_list ap;

	if (!vu->verbose)
		return;
	va_start(ap, fmt);
	fputs("qaic-emu: vhost-user: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

uint64_t vu_offered_features(void)
{
	return (1ULL << VIRTIO_F_VERSION_1) | (1ULL << VU_F_PROTOCOL_FEATURES);
}

/*
 * REPLY_ACK makes every setup message synchronous, so the frontend never
 * runs ahead of us; BACKEND_REQ is mandatory for virtio_uml (see top).
 */
uint64_t vu_offered_protocol_features(void)
{
	return (1ULL << VU_PROTOCOL_F_REPLY_ACK) |
	       (1ULL << VU_PROTOCOL_F_BACKEND_REQ);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void vu_vring_reset(struct vu_vring *vr, unsigned int index)
{
	memset(vr, 0, sizeof(*vr));
	vr->index = index;
	vr->kick_fd = -1;
	vr->call_fd = -1;
	vr->err_fd = -1;
}

void vu_init(struct vu_dev *vu, unsigned int nr_vrings,
	     const struct vu_ops *ops, void *ctx)
{
	unsigned int i;

	memset(vu, 0, sizeof(*vu));
	vu->listen_fd = -1;
	vu->sock_fd = -1;
	vu->backend_req_fd = -1;
	vu->nr_vrings = nr_vrings < VU_MAX_VRINGS ? nr_vrings : VU_MAX_VRINGS;
	vu->ops = ops;
	vu->ctx = ctx;
	guest_mem_init(&vu->mem);
	for (i = 0; i < VU_MAX_VRINGS; i++)
		vu_vring_reset(&vu->vrings[i], i);
}

int vu_listen(struct vu_dev *vu, const char *path)
{
	int fd = unix_sock_listen(path);

	if (fd < 0)
		return fd;
	vu->listen_fd = fd;
	return 0;
}

void vu_attach(struct vu_dev *vu, int fd)
{
	struct timeval tv = { .tv_sec = VU_RECV_TIMEOUT_SEC };

	/* A frontend that stops mid-message must not wedge us for good. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	vu->sock_fd = fd;
}

bool vu_connected(const struct vu_dev *vu)
{
	return vu->sock_fd >= 0;
}

void vu_close(struct vu_dev *vu)
{
	unsigned int i;

	for (i = 0; i < VU_MAX_VRINGS; i++) {
		struct vu_vring *vr = &vu->vrings[i];

		close_fd(&vr->kick_fd);
		close_fd(&vr->call_fd);
		close_fd(&vr->err_fd);
		vu_vring_reset(vr, i);
	}
	close_fd(&vu->backend_req_fd);
	close_fd(&vu->sock_fd);
	close_fd(&vu->listen_fd);
	guest_mem_reset(&vu->mem);
}

/* ---- socket I/O ---- */

static void close_rx_fds(struct vu_rx *rx)
{
	unsigned int i;

	for (i = 0; i < rx->nr_fds; i++)
		close_fd(&rx->fds[i]);
	rx->nr_fds = 0;
}

/* Read exactly @len bytes; the fds, if any, arrive with the first byte. */
static int recv_full(int sock, struct vu_rx *rx, void *buf, size_t len,
		     bool want_fds)
{
	return unix_sock_recv(sock, buf, len, want_fds ? rx->fds : NULL,
			      VU_MAX_FDS, &rx->nr_fds, NULL);
}

static int recv_msg(struct vu_dev *vu, struct vu_rx *rx)
{
	int ret;

	rx->nr_fds = 0;
	ret = recv_full(vu->sock_fd, rx, &rx->msg.hdr, sizeof(rx->msg.hdr),
			true);
	if (ret)
		return ret;
	if (rx->msg.hdr.size > sizeof(rx->msg.payload)) {
		/* Cannot skip what we cannot trust the length of: give up. */
		vu_log(vu, "request %u: payload of %u bytes is too large",
		       rx->msg.hdr.request, rx->msg.hdr.size);
		vu->stats.protocol_errors++;
		return -EPROTO;
	}
	return recv_full(vu->sock_fd, rx, &rx->msg.payload, rx->msg.hdr.size,
			 true);
}

static int send_all(int fd, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = send(fd, (const char *)buf + done, len - done,
				 MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		done += (size_t)n;
	}
	return 0;
}

static int send_reply(struct vu_dev *vu, uint32_t request,
		      const void *payload, uint32_t size)
{
	struct vu_msg reply = {
		.hdr = {
			.request = request,
			.flags = VU_VERSION | VU_FLAG_REPLY,
			.size = size,
		},
	};

	memcpy(&reply.payload, payload, size);
	return send_all(vu->sock_fd, &reply, sizeof(reply.hdr) + size);
}

static int reply_u64(struct vu_rx *rx, uint64_t val)
{
	rx->reply.u64 = val;
	rx->reply_size = sizeof(val);
	rx->has_reply = true;
	return 0;
}

/* ---- vrings ---- */

struct vu_vring *vu_vring(struct vu_dev *vu, unsigned int index)
{
	return index < vu->nr_vrings ? &vu->vrings[index] : NULL;
}

bool vu_vring_ready(const struct vu_vring *vr)
{
	return vr->desc && vr->avail && vr->used && vr->started &&
	       vr->enabled && !vr->broken;
}

/*
 * Turn the ring addresses into pointers. Sizes include the event index
 * words so that a ring at the very end of a region is refused rather than
 * half-mapped; misaligned rings are refused too (virtio spec 2.7).
 */
static void vring_resolve(struct vu_dev *vu, struct vu_vring *vr)
{
	uint64_t n = vr->num;

	vr->desc = NULL;
	vr->avail = NULL;
	vr->used = NULL;
	if (!vr->addr_set || !n)
		return;
	if (vr->desc_uva % 16 || vr->avail_uva % 2 || vr->used_uva % 4)
		return;
	vr->desc = guest_mem_uva(&vu->mem, vr->desc_uva,
				 n * sizeof(struct vring_desc));
	vr->avail = guest_mem_uva(&vu->mem, vr->avail_uva, 6 + 2 * n);
	vr->used = guest_mem_uva(&vu->mem, vr->used_uva,
				 6 + n * sizeof(struct vring_used_elem));
}

static void vring_kicked(struct vu_dev *vu, struct vu_vring *vr)
{
	vu->stats.kicks++;
	if (vu_vring_ready(vr) && vu->ops && vu->ops->vring_kick)
		vu->ops->vring_kick(vu->ctx, vu, vr);
}

static void vring_mark_broken(struct vu_dev *vu, struct vu_vring *vr,
			      const char *why)
{
	if (!vr->broken)
		vu->stats.broken_rings++;
	vr->broken = true;
	vu_log(vu, "vring %u: %s; ignoring it from now on", vr->index, why);
}

/* Each field is loaded once: the guest may rewrite descriptors under us. */
static void desc_load(const struct vring_desc *d, uint64_t *addr,
		      uint32_t *len, uint16_t *flags, uint16_t *next)
{
	*addr = le64toh(__atomic_load_n(&d->addr, __ATOMIC_RELAXED));
	*len = le32toh(__atomic_load_n(&d->len, __ATOMIC_RELAXED));
	*flags = le16toh(__atomic_load_n(&d->flags, __ATOMIC_RELAXED));
	*next = le16toh(__atomic_load_n(&d->next, __ATOMIC_RELAXED));
}

static bool chain_add(struct vu_dev *vu, struct vu_chain *c, uint64_t addr,
		      uint32_t len, bool writable)
{
	struct iovec *iov;
	void *host;

	if (!len)
		return true;
	host = guest_mem_gpa(&vu->mem, addr, len);
	if (!host)
		return false;
	/* Device-writable descriptors must come after all readable ones. */
	if (!writable && c->nr_in)
		return false;
	if ((writable ? c->nr_in : c->nr_out) >= VU_CHAIN_MAX_IOV)
		return false;
	iov = writable ? &c->in[c->nr_in++] : &c->out[c->nr_out++];
	iov->iov_base = host;
	iov->iov_len = len;
	if (writable)
		c->in_len += len;
	else
		c->out_len += len;
	return true;
}

static bool chain_walk(struct vu_dev *vu, struct vu_vring *vr, uint16_t head,
		       struct vu_chain *c)
{
	unsigned int count = 0;
	uint16_t i = head, flags, next;
	uint64_t addr;
	uint32_t len;

	c->head = head;
	c->nr_out = 0;
	c->nr_in = 0;
	c->out_len = 0;
	c->in_len = 0;
	for (;;) {
		/* A chain longer than the ring has a loop in it. */
		if (i >= vr->num || ++count > vr->num)
			return false;
		desc_load(&vr->desc[i], &addr, &len, &flags, &next);
		/* Indirect descriptors are not offered. */
		if (flags & VRING_DESC_F_INDIRECT)
			return false;
		if (!chain_add(vu, c, addr, len, flags & VRING_DESC_F_WRITE))
			return false;
		if (!(flags & VRING_DESC_F_NEXT))
			return true;
		i = next;
	}
}

int vu_vring_pop(struct vu_dev *vu, struct vu_vring *vr, struct vu_chain *c)
{
	uint16_t avail_idx, head;

	while (vu_vring_ready(vr)) {
		/* Acquire: ring entries written before idx are visible. */
		avail_idx = le16toh(__atomic_load_n(&vr->avail->idx,
						    __ATOMIC_ACQUIRE));
		if (avail_idx == vr->last_avail)
			return 0;
		if ((uint16_t)(avail_idx - vr->last_avail) > vr->num) {
			vring_mark_broken(vu, vr, "avail index jumped");
			return 0;
		}
		head = le16toh(__atomic_load_n(
			&vr->avail->ring[vr->last_avail % vr->num],
			__ATOMIC_RELAXED));
		vr->last_avail++;
		if (head >= vr->num) {
			vring_mark_broken(vu, vr, "head out of range");
			return 0;
		}
		if (chain_walk(vu, vr, head, c))
			return 1;
		/* Hand a malformed chain back empty so the guest is not stuck. */
		vu->stats.bad_chains++;
		vu_log(vu, "vring %u: malformed chain at head %u", vr->index,
		       head);
		vu_vring_push(vr, head, 0);
	}
	return 0;
}

void vu_vring_push(struct vu_vring *vr, uint16_t head, uint32_t len)
{
	struct vring_used_elem *e = &vr->used->ring[vr->used_idx % vr->num];

	e->id = htole32(head);
	e->len = htole32(len);
	vr->used_idx++;
	/* Release: the element is visible before the index that covers it. */
	__atomic_store_n(&vr->used->idx, htole16(vr->used_idx),
			 __ATOMIC_RELEASE);
}

static void send_inband_call(struct vu_dev *vu, struct vu_vring *vr)
{
	struct vu_msg msg = {
		.hdr = {
			.request = VU_BACKEND_VRING_CALL,
			.flags = VU_VERSION,	/* no NEED_REPLY: one-way pipe */
			.size = sizeof(struct vu_vring_state),
		},
		.payload.state = { .index = vr->index },
	};

	if (send_all(vu->backend_req_fd, &msg, sizeof(msg.hdr) + msg.hdr.size))
		vu_log(vu, "vring %u: in-band call failed", vr->index);
}

void vu_vring_notify(struct vu_dev *vu, struct vu_vring *vr)
{
	const uint64_t one = 1;

	/* Order the used index store before reading the guest's flags. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (le16toh(__atomic_load_n(&vr->avail->flags, __ATOMIC_RELAXED)) &
	    VRING_AVAIL_F_NO_INTERRUPT)
		return;

	vu->stats.calls++;
	if (vr->call_fd >= 0) {
		/* EAGAIN: the frontend has unread calls already; enough. */
		if (write(vr->call_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
			vu_log(vu, "vring %u: call failed: %s", vr->index,
			       strerror(errno));
	} else if (vu->backend_req_fd >= 0 &&
		   (vu->protocol_features &
		    (1ULL << VU_PROTOCOL_F_INBAND_NOTIFICATIONS))) {
		send_inband_call(vu, vr);
	}
}

/* ---- message handlers ---- */

static int handle_get_features(struct vu_dev *vu, struct vu_rx *rx)
{
	(void)vu;
	return reply_u64(rx, vu_offered_features());
}

static int handle_set_features(struct vu_dev *vu, struct vu_rx *rx)
{
	uint64_t f = rx->msg.payload.u64;

	if (f & ~vu_offered_features())
		return -EINVAL;
	vu->features = f;
	return 0;
}

static int handle_get_protocol_features(struct vu_dev *vu, struct vu_rx *rx)
{
	(void)vu;
	return reply_u64(rx, vu_offered_protocol_features());
}

static int handle_set_protocol_features(struct vu_dev *vu, struct vu_rx *rx)
{
	uint64_t f = rx->msg.payload.u64;

	if (f & ~vu_offered_protocol_features())
		return -EINVAL;
	vu->protocol_features = f;
	return 0;
}

static int handle_nop(struct vu_dev *vu, struct vu_rx *rx)
{
	(void)vu;
	(void)rx;
	return 0;
}

static void resolve_all_vrings(struct vu_dev *vu)
{
	unsigned int i;

	for (i = 0; i < vu->nr_vrings; i++)
		vring_resolve(vu, &vu->vrings[i]);
}

static int handle_set_mem_table(struct vu_dev *vu, struct vu_rx *rx)
{
	const struct vu_mem_table *t = &rx->msg.payload.mem;
	unsigned int i;
	int ret = 0;

	/* virtio_uml always sends room for two regions, even when num is 1. */
	if (t->num > VU_MAX_FDS || t->num != rx->nr_fds ||
	    rx->msg.hdr.size < 8 + t->num * sizeof(struct vu_mem_region))
		return -EINVAL;

	/* The old table goes away whatever happens to the new one. */
	guest_mem_reset(&vu->mem);
	for (i = 0; i < t->num && !ret; i++) {
		const struct vu_mem_region *r = &t->regions[i];

		ret = guest_mem_add_fd(&vu->mem, rx->fds[i], r->mmap_offset,
				       r->gpa, r->uva, r->size, false);
		vu_log(vu, "region %u: gpa %#" PRIx64 " size %#" PRIx64
		       " offset %#" PRIx64 ": %s", i, r->gpa, r->size,
		       r->mmap_offset, ret ? strerror(-ret) : "mapped");
	}
	if (ret)
		guest_mem_reset(&vu->mem);
	resolve_all_vrings(vu);
	return ret;
}

static int handle_set_vring_num(struct vu_dev *vu, struct vu_rx *rx)
{
	struct vu_vring *vr = vu_vring(vu, rx->msg.payload.state.index);
	uint32_t num = rx->msg.payload.state.num;

	if (!vr || !num || num > VU_MAX_QUEUE_SIZE || (num & (num - 1)))
		return -EINVAL;
	vr->num = num;
	vring_resolve(vu, vr);
	return 0;
}

static int handle_set_vring_addr(struct vu_dev *vu, struct vu_rx *rx)
{
	const struct vu_vring_addr *a = &rx->msg.payload.addr;
	struct vu_vring *vr = vu_vring(vu, a->index);

	if (!vr)
		return -EINVAL;
	vr->desc_uva = a->desc;
	vr->avail_uva = a->avail;
	vr->used_uva = a->used;
	vr->addr_set = true;
	vr->broken = false;
	vring_resolve(vu, vr);
	return vr->desc && vr->avail && vr->used ? 0 : -EFAULT;
}

static int handle_set_vring_base(struct vu_dev *vu, struct vu_rx *rx)
{
	struct vu_vring *vr = vu_vring(vu, rx->msg.payload.state.index);

	if (!vr || rx->msg.payload.state.num > UINT16_MAX)
		return -EINVAL;
	vr->last_avail = (uint16_t)rx->msg.payload.state.num;
	vr->used_idx = vr->last_avail;
	vr->broken = false;
	return 0;
}

/* Stops the ring and tells the frontend where it stopped. */
static int handle_get_vring_base(struct vu_dev *vu, struct vu_rx *rx)
{
	struct vu_vring *vr = vu_vring(vu, rx->msg.payload.state.index);

	if (!vr)
		return -EINVAL;
	vr->started = false;
	close_fd(&vr->kick_fd);
	rx->reply.state.index = vr->index;
	rx->reply.state.num = vr->last_avail;
	rx->reply_size = sizeof(rx->reply.state);
	rx->has_reply = true;
	return 0;
}

/*
 * SET_VRING_KICK/CALL/ERR: payload is the ring index plus a "no fd" bit;
 * without that bit exactly one fd must have come along. The fd is taken
 * out of @rx so that the dispatcher does not close it.
 */
static int vring_fd_arg(struct vu_dev *vu, struct vu_rx *rx,
			struct vu_vring **vr, int *fd)
{
	uint64_t arg = rx->msg.payload.u64;
	bool nofd = arg & VU_VRING_NOFD_MASK;

	*vr = vu_vring(vu, arg & VU_VRING_INDEX_MASK);
	if (!*vr || (arg & ~(uint64_t)(VU_VRING_INDEX_MASK | VU_VRING_NOFD_MASK)))
		return -EINVAL;
	if (nofd != !rx->nr_fds || rx->nr_fds > 1)
		return -EINVAL;
	*fd = -1;
	if (!nofd) {
		*fd = rx->fds[0];
		rx->fds[0] = -1;
	}
	return 0;
}

static int handle_set_vring_kick(struct vu_dev *vu, struct vu_rx *rx)
{
	struct vu_vring *vr;
	int fd, ret;

	ret = vring_fd_arg(vu, rx, &vr, &fd);
	if (ret)
		return ret;
	close_fd(&vr->kick_fd);
	vr->kick_fd = fd;
	vr->started = true;
	/* Buffers may have been made available before the kick fd came. */
	vring_kicked(vu, vr);
	return 0;
}

static int handle_set_vring_call(struct vu_dev *vu, struct vu_rx *rx)
{
	struct vu_vring *vr;
	int fd, ret;

	ret = vring_fd_arg(vu, rx, &vr, &fd);
	if (ret)
		return ret;
	close_fd(&vr->call_fd);
	/*
	 * virtio_uml passes a pipe and closes its write end: the fd is ours
	 * alone, so making it non-blocking cannot affect the frontend.
	 */
	if (fd >= 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	vr->call_fd = fd;
	return 0;
}

static int handle_set_vring_err(struct vu_dev *vu, struct vu_rx *rx)
{
	struct vu_vring *vr;
	int fd, ret;

	ret = vring_fd_arg(vu, rx, &vr, &fd);
	if (ret)
		return ret;
	close_fd(&vr->err_fd);
	vr->err_fd = fd;
	return 0;
}

static int handle_get_queue_num(struct vu_dev *vu, struct vu_rx *rx)
{
	return reply_u64(rx, vu->nr_vrings);
}

static int handle_set_vring_enable(struct vu_dev *vu, struct vu_rx *rx)
{
	struct vu_vring *vr = vu_vring(vu, rx->msg.payload.state.index);
	uint32_t enable = rx->msg.payload.state.num;

	if (!vr || enable > 1)
		return -EINVAL;
	vr->enabled = enable;
	if (enable)
		vring_kicked(vu, vr);
	return 0;
}

static int handle_set_backend_req_fd(struct vu_dev *vu, struct vu_rx *rx)
{
	int fd;

	if (rx->nr_fds != 1)
		return -EINVAL;
	fd = rx->fds[0];
	rx->fds[0] = -1;
	close_fd(&vu->backend_req_fd);
	/* A pipe whose read end is the frontend's: never block on it. */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	vu->backend_req_fd = fd;
	return 0;
}

static int handle_vring_kick(struct vu_dev *vu, struct vu_rx *rx)
{
	struct vu_vring *vr = vu_vring(vu, rx->msg.payload.state.index);

	if (!vr)
		return -EINVAL;
	vring_kicked(vu, vr);
	return 0;
}

struct vu_handler {
	int (*fn)(struct vu_dev *vu, struct vu_rx *rx);
	uint32_t size;		/* exact payload size; UINT32_MAX: checked by fn */
};

#define VU_VAR_SIZE UINT32_MAX

static const struct vu_handler vu_handlers[] = {
	[VU_GET_FEATURES] = { handle_get_features, 0 },
	[VU_SET_FEATURES] = { handle_set_features, sizeof(uint64_t) },
	[VU_SET_OWNER] = { handle_nop, 0 },
	[VU_RESET_OWNER] = { handle_nop, 0 },
	[VU_SET_MEM_TABLE] = { handle_set_mem_table, VU_VAR_SIZE },
	[VU_SET_VRING_NUM] = { handle_set_vring_num,
			       sizeof(struct vu_vring_state) },
	[VU_SET_VRING_ADDR] = { handle_set_vring_addr,
				sizeof(struct vu_vring_addr) },
	[VU_SET_VRING_BASE] = { handle_set_vring_base,
				sizeof(struct vu_vring_state) },
	[VU_GET_VRING_BASE] = { handle_get_vring_base,
				sizeof(struct vu_vring_state) },
	[VU_SET_VRING_KICK] = { handle_set_vring_kick, sizeof(uint64_t) },
	[VU_SET_VRING_CALL] = { handle_set_vring_call, sizeof(uint64_t) },
	[VU_SET_VRING_ERR] = { handle_set_vring_err, sizeof(uint64_t) },
	[VU_GET_PROTOCOL_FEATURES] = { handle_get_protocol_features, 0 },
	[VU_SET_PROTOCOL_FEATURES] = { handle_set_protocol_features,
				       sizeof(uint64_t) },
	[VU_GET_QUEUE_NUM] = { handle_get_queue_num, 0 },
	[VU_SET_VRING_ENABLE] = { handle_set_vring_enable,
				  sizeof(struct vu_vring_state) },
	[VU_SET_BACKEND_REQ_FD] = { handle_set_backend_req_fd, 0 },
	[VU_VRING_KICK] = { handle_vring_kick, sizeof(struct vu_vring_state) },
};

static int run_handler(struct vu_dev *vu, struct vu_rx *rx)
{
	uint32_t req = rx->msg.hdr.request;
	const struct vu_handler *h;

	if ((rx->msg.hdr.flags & VU_FLAG_VERSION_MASK) != VU_VERSION)
		return -EPROTO;
	if (req >= sizeof(vu_handlers) / sizeof(vu_handlers[0]) ||
	    !vu_handlers[req].fn)
		return -ENOSYS;
	h = &vu_handlers[req];
	/* Senders may append to fixed payloads (VRING_KICK sends 8 bytes). */
	if (h->size != VU_VAR_SIZE && rx->msg.hdr.size < h->size)
		return -EINVAL;
	return h->fn(vu, rx);
}

/*
 * Requests with a reply always get it; other requests get a status (0 ok,
 * 1 failed) only when the frontend asked with NEED_REPLY (REPLY_ACK).
 * A bad request is counted and refused, never fatal; only socket errors
 * end the connection.
 */
int vu_handle_message(struct vu_dev *vu)
{
	struct vu_rx rx = { 0 };
	uint64_t status;
	int ret;

	ret = recv_msg(vu, &rx);
	if (ret) {
		close_rx_fds(&rx);
		return ret;
	}
	vu->stats.messages++;

	ret = run_handler(vu, &rx);
	close_rx_fds(&rx);
	if (ret) {
		vu->stats.protocol_errors++;
		vu_log(vu, "request %u (size %u) refused: %s",
		       rx.msg.hdr.request, rx.msg.hdr.size, strerror(-ret));
	}
	if (rx.has_reply)
		return send_reply(vu, rx.msg.hdr.request, &rx.reply,
				  rx.reply_size);
	if (!(rx.msg.hdr.flags & VU_FLAG_NEED_REPLY))
		return 0;
	status = ret ? 1 : 0;
	return send_reply(vu, rx.msg.hdr.request, &status, sizeof(status));
}

/* ---- poll loop integration ---- */

unsigned int vu_pollfds(const struct vu_dev *vu, struct pollfd *pfds,
			unsigned int max)
{
	unsigned int n = 0, i;

	if (!max)
		return 0;
	if (vu->sock_fd >= 0)
		pfds[n++] = (struct pollfd){ .fd = vu->sock_fd, .events = POLLIN };
	else if (vu->listen_fd >= 0)
		pfds[n++] = (struct pollfd){ .fd = vu->listen_fd, .events = POLLIN };
	for (i = 0; i < vu->nr_vrings && n < max; i++) {
		if (vu->vrings[i].kick_fd >= 0)
			pfds[n++] = (struct pollfd){ .fd = vu->vrings[i].kick_fd,
						     .events = POLLIN };
	}
	return n;
}

static void accept_frontend(struct vu_dev *vu)
{
	int fd = accept4(vu->listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0) {
		vu_log(vu, "accept: %s", strerror(errno));
		return;
	}
	/* One frontend per life: UML connects once and never reconnects. */
	close_fd(&vu->listen_fd);
	vu_attach(vu, fd);
	vu_log(vu, "frontend connected");
}

static void drain_kick(struct vu_dev *vu, int fd)
{
	unsigned int i;
	uint64_t count;

	for (i = 0; i < vu->nr_vrings; i++) {
		struct vu_vring *vr = &vu->vrings[i];

		if (vr->kick_fd != fd)
			continue;
		/* The eventfd is the frontend's, blocking: read only when ready. */
		if (read(fd, &count, sizeof(count)) != sizeof(count))
			return;
		vring_kicked(vu, vr);
		return;
	}
}

/*
 * Kicks are handled before the socket message: handling a message may
 * close or replace kick fds, and a stale revents on a reused fd number
 * would then block in read() on an empty eventfd.
 */
int vu_dispatch(struct vu_dev *vu, const struct pollfd *pfds, unsigned int nr)
{
	int sock_ready = 0;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (!pfds[i].revents)
			continue;
		if (pfds[i].fd == vu->listen_fd)
			accept_frontend(vu);
		else if (pfds[i].fd == vu->sock_fd)
			sock_ready = 1;
		else if (pfds[i].revents & POLLIN)
			drain_kick(vu, pfds[i].fd);
	}
	if (sock_ready && vu_handle_message(vu))
		return -ECONNRESET;
	return 0;
}

uint64_t vu_iov_to_buf(const struct iovec *iov, unsigned int nr, void *buf,
		       uint64_t len)
{
	uint64_t done = 0, n;
	unsigned int i;

	for (i = 0; i < nr && done < len; i++) {
		n = iov[i].iov_len < len - done ? iov[i].iov_len : len - done;
		memcpy((uint8_t *)buf + done, iov[i].iov_base, n);
		done += n;
	}
	return done;
}

uint64_t vu_buf_to_iov(const struct iovec *iov, unsigned int nr,
		       const void *buf, uint64_t len)
{
	uint64_t done = 0, n;
	unsigned int i;

	for (i = 0; i < nr && done < len; i++) {
		n = iov[i].iov_len < len - done ? iov[i].iov_len : len - done;
		memcpy(iov[i].iov_base, (const uint8_t *)buf + done, n);
		done += n;
	}
	return done;
}

void vu_stats_print(const struct vu_stats *s, FILE *out)
{
	fprintf(out, "vu_messages %" PRIu64 "\n", s->messages);
	fprintf(out, "vu_protocol_errors %" PRIu64 "\n", s->protocol_errors);
	fprintf(out, "vu_bad_chains %" PRIu64 "\n", s->bad_chains);
	fprintf(out, "vu_broken_rings %" PRIu64 "\n", s->broken_rings);
	fprintf(out, "vu_kicks %" PRIu64 "\n", s->kicks);
	fprintf(out, "vu_calls %" PRIu64 "\n", s->calls);
}
