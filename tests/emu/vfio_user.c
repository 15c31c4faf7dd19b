// SPDX-License-Identifier: GPL-2.0-only
/*
 * vfio-user server for the emulated AIC100.
 *
 * Facts about QEMU 11.1.3's client (measured, see manual.rst):
 *  - it reuses its VERSION request buffer for the reply, so the reply must
 *    be no longer than the request, and its JSON NUL-terminated;
 *  - guest RAM from a memfd backend comes with an fd in DMA_MAP; ROMs and
 *    plain -m RAM come without one and are reached by DMA_READ/WRITE,
 *    whose data starts at byte 32 of the message;
 *  - while our DMA_READ/WRITE waits, a vCPU may be blocked in a
 *    REGION_READ with the lock the client needs to answer us: we serve
 *    client requests until our reply comes;
 *  - it emulates the MSI-X table and masking, and takes the MSI vector
 *    count from config space: we only ever name vectors (eventfds);
 *  - SET_IRQS with DATA_EVENTFD and no fd de-assigns; DATA_NONE with
 *    count 0 disables the index;
 *  - BAR writes come posted (NO_REPLY); a guest FLR is a config write of
 *    DEVCTL's Initiate FLR, which the device acts on (device.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/vfio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "le_bytes.h"
#include "unix_sock.h"
#include "vfio_user.h"

_Static_assert(VFU_MAX_MSG_FDS <= UNIX_SOCK_MAX_FDS, "fds per receive");

/* A DMA_READ/WRITE of ours waiting for its reply. */
struct vfu_wait {
	uint16_t id;
	uint16_t cmd;
	bool done;
	int error;
	void *buf;		/* DMA_READ: where the data goes */
	uint64_t len;
};

/* One message as received: header, payload, the fds that came with it. */
struct vfu_msg {
	struct vfu_hdr hdr;
	uint8_t *data;
	size_t len;
	int fds[VFU_MAX_MSG_FDS];
	unsigned int nr_fds;
	bool fds_truncated;	/* more fds came than we take */
};

#define vfu_log(s, ...) emu_log((s)->dev, "vfio-user: " __VA_ARGS__)

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void close_irq_fds(int *fds)
{
	unsigned int i;

	for (i = 0; i < EMU_NUM_VECTORS; i++)
		close_fd(&fds[i]);
}

/* ---- transport-side callbacks of the device ---- */

/* emu_irq_sink: vector N of the enabled index fires its eventfd. */
static void vfu_send_irq(void *ctx, const struct emu_msi_msg *msg)
{
	struct vfu_server *s = ctx;
	const int *fds = msg->msix ? s->msix_fds : s->msi_fds;
	uint64_t one = 1;

	if (msg->vector >= EMU_NUM_VECTORS || fds[msg->vector] < 0) {
		s->dev->counters.irq_dropped++;
		vfu_log(s, "%s vector %u has no eventfd", msg->msix ? "MSI-X" :
			"MSI", msg->vector);
		return;
	}
	/* Non-blocking: a saturated counter still means "interrupt pending". */
	if (write(fds[msg->vector], &one, sizeof(one)) != sizeof(one) &&
	    errno != EAGAIN) {
		s->dev->counters.irq_dropped++;
		return;
	}
	s->dev->counters.irq_sent++;
	s->stats.irqs++;
}

static int dma_by_msg(struct vfu_server *s, uint16_t cmd, uint64_t addr,
		      void *rbuf, const void *wbuf, uint64_t len);

static int vfu_mem_read(void *ctx, uint64_t gpa, void *buf, uint64_t len)
{
	return dma_by_msg(ctx, VFU_DMA_READ, gpa, buf, NULL, len);
}

static int vfu_mem_write(void *ctx, uint64_t gpa, const void *buf,
			 uint64_t len)
{
	return dma_by_msg(ctx, VFU_DMA_WRITE, gpa, NULL, buf, len);
}

void vfu_init(struct vfu_server *s, struct emu_device *dev)
{
	struct emu_irq_sink sink = { .send = vfu_send_irq, .ctx = s };
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->listen_fd = -1;
	s->sock_fd = -1;
	s->dev = dev;
	for (i = 0; i < EMU_NUM_VECTORS; i++) {
		s->msi_fds[i] = -1;
		s->msix_fds[i] = -1;
	}
	guest_mem_init(&s->mem);
	guest_mem_set_max_regions(&s->mem, VFU_MAX_DMA_MAPS);
	s->mem.io = (struct guest_mem_io){
		.read = vfu_mem_read, .write = vfu_mem_write, .ctx = s,
	};
	emu_device_set_guest_mem(dev, &s->mem);
	emu_device_set_irq_sink(dev, &sink);
	emu_pci_set_irq_by_vector(&dev->pci, true);
	dev->loud_dma_faults = true;
}

/* ---- connection ---- */

int vfu_listen(struct vfu_server *s, const char *path)
{
	int fd = unix_sock_listen(path);

	if (fd < 0)
		return fd;
	s->listen_fd = fd;
	return 0;
}

void vfu_attach(struct vfu_server *s, int fd)
{
	struct timeval tv = { .tv_sec = VFU_RECV_TIMEOUT_SEC };

	/* A client that stops mid-message must not wedge us for good. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	s->sock_fd = fd;
	s->version_done = false;
	s->broken = false;
	s->client_max_fds = 1;
	s->client_max_xfer = VFU_MAX_DATA_XFER;
}

bool vfu_connected(const struct vfu_server *s)
{
	return s->sock_fd >= 0;
}

void vfu_close(struct vfu_server *s)
{
	close_fd(&s->sock_fd);
	close_fd(&s->listen_fd);
	close_irq_fds(s->msi_fds);
	close_irq_fds(s->msix_fds);
	guest_mem_reset(&s->mem);
}

unsigned int vfu_pollfds(const struct vfu_server *s, struct pollfd *pfds,
			 unsigned int max)
{
	int fd = s->sock_fd >= 0 ? s->sock_fd : s->listen_fd;

	if (!max || fd < 0)
		return 0;
	pfds[0] = (struct pollfd){ .fd = fd, .events = POLLIN };
	return 1;
}

/* ---- framing ---- */

static void msg_free(struct vfu_msg *m)
{
	unsigned int i;

	for (i = 0; i < m->nr_fds; i++)
		close_fd(&m->fds[i]);
	m->nr_fds = 0;
	free(m->data);
	m->data = NULL;
}

/*
 * Receive one message. Any error leaves the framing untrustworthy: the
 * caller drops the connection.
 */
static int recv_msg(struct vfu_server *s, struct vfu_msg *m)
{
	int ret;

	memset(m, 0, sizeof(*m));
	ret = unix_sock_recv(s->sock_fd, &m->hdr, VFU_HDR_SIZE, m->fds,
			     VFU_MAX_MSG_FDS, &m->nr_fds, &m->fds_truncated);
	if (ret)
		return ret;
	if (m->hdr.size < VFU_HDR_SIZE || m->hdr.size > VFU_MAX_MSG) {
		vfu_log(s, "message %u cmd %u: size %u", m->hdr.id, m->hdr.cmd,
			m->hdr.size);
		s->stats.protocol_errors++;
		return -EPROTO;
	}
	m->len = m->hdr.size - VFU_HDR_SIZE;
	/* One byte more: a VERSION's JSON can then always be terminated. */
	m->data = calloc(1, m->len + 1);
	if (!m->data)
		return -ENOMEM;
	ret = unix_sock_recv(s->sock_fd, m->data, m->len, NULL, 0, NULL, NULL);
	if (ret)
		return ret;
	return 0;
}

static int send_all(struct vfu_server *s, const struct vfu_hdr *hdr,
		    const void *a, size_t alen, const void *b, size_t blen)
{
	struct iovec iov[3] = {
		{ (void *)hdr, VFU_HDR_SIZE },
		{ (void *)a, alen },
		{ (void *)b, blen },
	};
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 3 };
	size_t left = VFU_HDR_SIZE + alen + blen;

	while (left) {
		ssize_t n = sendmsg(s->sock_fd, &mh, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			s->broken = true;
			return -EIO;
		}
		left -= (size_t)n;
		/* Short write: step over what went out. */
		while (n && mh.msg_iovlen) {
			size_t k = (size_t)n < mh.msg_iov->iov_len ?
				   (size_t)n : mh.msg_iov->iov_len;

			mh.msg_iov->iov_base = (uint8_t *)mh.msg_iov->iov_base + k;
			mh.msg_iov->iov_len -= k;
			n -= (ssize_t)k;
			if (!mh.msg_iov->iov_len) {
				mh.msg_iov++;
				mh.msg_iovlen--;
			}
		}
	}
	return 0;
}

static void send_reply(struct vfu_server *s, const struct vfu_hdr *req,
		       int err, const void *a, size_t alen, const void *b,
		       size_t blen)
{
	struct vfu_hdr hdr = {
		.id = req->id,
		.cmd = req->cmd,
		.flags = VFU_F_TYPE_REPLY,
	};

	if (err) {
		hdr.flags |= VFU_F_ERROR;
		hdr.error = (uint32_t)err;
		alen = blen = 0;
	}
	hdr.size = (uint32_t)(VFU_HDR_SIZE + alen + blen);
	send_all(s, &hdr, a, alen, b, blen);
}

/* ---- requests ---- */

/* What a handler answers: an error, or a payload of up to two pieces. */
struct vfu_reply {
	const void *a, *b;
	size_t alen, blen;
	uint8_t small[64];	/* room for a fixed-size payload */
	void *owned;		/* freed once the reply is sent */
};

static int reply_small(struct vfu_reply *r, const void *p, size_t len)
{
	memcpy(r->small, p, len);
	r->a = r->small;
	r->alen = len;
	return 0;
}

/* Fixed part of a payload, with argsz (its first u32) covering it. */
static int get_args(const struct vfu_msg *m, void *args, size_t size,
		    bool has_argsz)
{
	uint32_t argsz;

	if (m->len < size)
		return -EINVAL;
	memcpy(args, m->data, size);
	if (has_argsz) {
		memcpy(&argsz, args, sizeof(argsz));
		if (argsz < size)
			return -EINVAL;
	}
	return 0;
}

/*
 * A structural check of the JSON text: one object, balanced brackets,
 * closed strings, nothing after it. Enough to refuse garbage; the values
 * we read are found by key.
 */
static bool json_sane(const char *p)
{
	unsigned int depth = 0;
	bool in_str = false;

	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (*p != '{')
		return false;
	for (; *p; p++) {
		if (in_str) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				in_str = false;
			continue;
		}
		if (*p == '"') {
			in_str = true;
		} else if (*p == '{' || *p == '[') {
			if (++depth > 16)
				return false;
		} else if (*p == '}' || *p == ']') {
			if (!depth--)
				return false;
			if (!depth)
				break;
		}
	}
	if (!*p)
		return false;
	for (p++; *p; p++)
		if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			return false;
	return true;
}

/* The unsigned number after "key": in @json, or @def. */
static uint64_t json_u64(const char *json, const char *key, uint64_t def)
{
	char pat[64];
	const char *p;
	char *end;
	unsigned long long v;

	snprintf(pat, sizeof(pat), "\"%s\"", key);
	p = strstr(json, pat);
	if (!p)
		return def;
	p += strlen(pat);
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (*p++ != ':')
		return def;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (*p < '0' || *p > '9')
		return def;
	errno = 0;
	v = strtoull(p, &end, 10);
	return errno ? def : v;
}

static int do_version(struct vfu_server *s, struct vfu_msg *m,
		      struct vfu_reply *r)
{
	/* Longest first: the reply must not outgrow the request. */
	static const char *const caps[] = {
		"{\"capabilities\":{\"max_msg_fds\":16,"
		"\"max_data_xfer_size\":1048576,\"pgsizes\":4096}}",
		"{\"capabilities\":{\"max_msg_fds\":16}}",
		"{}",
	};
	struct vfu_version v;
	const char *json = (const char *)m->data + sizeof(v);
	size_t json_len, i;

	if (m->len < sizeof(v) + 1)
		return -EINVAL;
	memcpy(&v, m->data, sizeof(v));
	json_len = m->len - sizeof(v);
	if (v.major != 0 || json[json_len - 1] != '\0' ||
	    strlen(json) != json_len - 1 || !json_sane(json)) {
		vfu_log(s, "bad VERSION %u.%u", v.major, v.minor);
		return -EINVAL;
	}
	s->client_max_fds = (uint32_t)json_u64(json, "max_msg_fds", 1);
	s->client_max_xfer = (uint32_t)json_u64(json, "max_data_xfer_size",
						VFU_MAX_DATA_XFER);
	if (!s->client_max_xfer || s->client_max_xfer > VFU_MAX_DATA_XFER)
		s->client_max_xfer = VFU_MAX_DATA_XFER;
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		if (strlen(caps[i]) + 1 <= json_len)
			break;
	if (i == sizeof(caps) / sizeof(caps[0]))
		return -EINVAL;
	vfu_log(s, "client %u.%u: max_msg_fds %u max_data_xfer_size %u",
		v.major, v.minor, s->client_max_fds, s->client_max_xfer);
	v.minor = 0;
	s->version_done = true;
	reply_small(r, &v, sizeof(v));
	r->b = caps[i];
	r->blen = strlen(caps[i]) + 1;
	return 0;
}

static int do_dma_map(struct vfu_server *s, struct vfu_msg *m,
		      struct vfu_reply *r)
{
	struct vfu_dma_map a;
	bool ro;
	int ret;

	(void)r;
	ret = get_args(m, &a, sizeof(a), true);
	if (ret)
		return ret;
	if (!(a.flags & VFU_DMA_READ_OK) ||
	    (a.flags & ~(VFU_DMA_READ_OK | VFU_DMA_WRITE_OK)) || m->nr_fds > 1)
		return -EINVAL;
	ro = !(a.flags & VFU_DMA_WRITE_OK);
	if (m->nr_fds)
		ret = guest_mem_add_fd(&s->mem, m->fds[0], a.offset, a.addr,
				       a.addr, a.size, ro);
	else
		ret = guest_mem_add_host(&s->mem, NULL, a.addr, a.addr, a.size,
					 ro);
	vfu_log(s, "DMA_MAP iova %#" PRIx64 " size %#" PRIx64 " %s%s: %s",
		a.addr, a.size, ro ? "ro" : "rw", m->nr_fds ? " fd" : "",
		ret ? strerror(-ret) : "ok");
	if (!ret)
		s->stats.dma_maps++;
	else if (ret == -ENOSPC)
		s->stats.dma_maps_refused++;
	return ret;	/* the fd, mapped or not, is closed with the message */
}

static int do_dma_unmap(struct vfu_server *s, struct vfu_msg *m,
			struct vfu_reply *r)
{
	struct vfu_dma_unmap a;
	int ret;

	ret = get_args(m, &a, sizeof(a), true);
	if (ret)
		return ret;
	if (a.flags & ~VFIO_DMA_UNMAP_FLAG_ALL)
		return -ENOTSUP;	/* dirty bitmaps: no migration */
	if (a.flags & VFIO_DMA_UNMAP_FLAG_ALL) {
		guest_mem_reset(&s->mem);
	} else {
		ret = guest_mem_remove(&s->mem, a.addr, a.size);
		vfu_log(s, "DMA_UNMAP iova %#" PRIx64 " size %#" PRIx64 ": %d",
			a.addr, a.size, ret);
		if (ret < 0)
			return ret;
	}
	s->stats.dma_unmaps++;
	return reply_small(r, &a, sizeof(a));
}

static int do_get_info(struct vfu_server *s, struct vfu_msg *m,
		       struct vfu_reply *r)
{
	struct vfio_device_info a;
	int ret;

	(void)s;
	ret = get_args(m, &a, 16, true);	/* up to num_irqs */
	if (ret)
		return ret;
	a.argsz = 16;
	a.flags = VFIO_DEVICE_FLAGS_RESET | VFIO_DEVICE_FLAGS_PCI;
	a.num_regions = VFIO_PCI_NUM_REGIONS;
	a.num_irqs = VFIO_PCI_NUM_IRQS;
	return reply_small(r, &a, 16);
}

static uint64_t region_size(const struct vfu_server *s, uint32_t index)
{
	if (index <= VFIO_PCI_BAR5_REGION_INDEX)
		return emu_pci_card_bar_size(&s->dev->pci, index);
	if (index == VFIO_PCI_CONFIG_REGION_INDEX)
		return EMU_PCI_CFG_SIZE;	/* PCIe: QEMU keeps the Express cap */
	return 0;
}

static int do_region_info(struct vfu_server *s, struct vfu_msg *m,
			  struct vfu_reply *r)
{
	struct vfio_region_info a;
	int ret;

	ret = get_args(m, &a, sizeof(a), true);
	if (ret)
		return ret;
	if (a.index >= VFIO_PCI_NUM_REGIONS)
		return -EINVAL;
	a.argsz = sizeof(a);
	a.cap_offset = 0;
	a.offset = 0;		/* no mmap: only REGION_READ/WRITE reach it */
	a.size = region_size(s, a.index);
	a.flags = a.size ? VFIO_REGION_INFO_FLAG_READ |
			   VFIO_REGION_INFO_FLAG_WRITE : 0;
	return reply_small(r, &a, sizeof(a));
}

static uint32_t irq_count(const struct vfu_server *s, uint32_t index)
{
	if (index == VFIO_PCI_MSI_IRQ_INDEX)
		return EMU_NUM_VECTORS;
	if (index == VFIO_PCI_MSIX_IRQ_INDEX)
		return s->dev->pci.has_msix ? EMU_NUM_VECTORS : 0;
	return 0;		/* no INTx (pin 0), no ERR or REQ */
}

static int do_irq_info(struct vfu_server *s, struct vfu_msg *m,
		       struct vfu_reply *r)
{
	struct vfio_irq_info a;
	int ret;

	ret = get_args(m, &a, sizeof(a), true);
	if (ret)
		return ret;
	if (a.index >= VFIO_PCI_NUM_IRQS)
		return -EINVAL;
	a.argsz = sizeof(a);
	a.count = irq_count(s, a.index);
	/* Not NORESIZE: the client then adds MSI-X vectors one by one. */
	a.flags = a.count ? VFIO_IRQ_INFO_EVENTFD : 0;
	return reply_small(r, &a, sizeof(a));
}

static int *irq_fds(struct vfu_server *s, uint32_t index)
{
	if (index == VFIO_PCI_MSI_IRQ_INDEX)
		return s->msi_fds;
	if (index == VFIO_PCI_MSIX_IRQ_INDEX)
		return s->msix_fds;
	return NULL;
}

/* DATA_NONE or DATA_BOOL triggers: fire the vectors as the device would. */
static void irq_loopback(struct vfu_server *s, uint32_t index, uint32_t v)
{
	struct emu_msi_msg msg = {
		.msix = index == VFIO_PCI_MSIX_IRQ_INDEX, .vector = v,
	};

	vfu_send_irq(s, &msg);
}

static int do_set_irqs(struct vfu_server *s, struct vfu_msg *m,
		       struct vfu_reply *r)
{
	uint32_t data_type, action, i;
	struct vfio_irq_set a;
	int *fds;
	int ret;

	(void)r;
	ret = get_args(m, &a, sizeof(a), true);
	if (ret)
		return ret;
	data_type = a.flags & VFIO_IRQ_SET_DATA_TYPE_MASK;
	action = a.flags & VFIO_IRQ_SET_ACTION_TYPE_MASK;
	if ((a.flags & ~(VFIO_IRQ_SET_DATA_TYPE_MASK |
			 VFIO_IRQ_SET_ACTION_TYPE_MASK)) ||
	    __builtin_popcount(data_type) != 1 || __builtin_popcount(action) != 1 ||
	    a.index >= VFIO_PCI_NUM_IRQS)
		return -EINVAL;
	if (a.start > irq_count(s, a.index) ||
	    a.count > irq_count(s, a.index) - a.start)
		return -EINVAL;
	if (data_type != VFIO_IRQ_SET_DATA_EVENTFD && m->nr_fds)
		return -EINVAL;
	if (action != VFIO_IRQ_SET_ACTION_TRIGGER)
		return -ENOTSUP;	/* the client masks; no INTx to mask */
	fds = irq_fds(s, a.index);

	switch (data_type) {
	case VFIO_IRQ_SET_DATA_NONE:
		if (!a.count) {		/* disable the index */
			if (fds)
				close_irq_fds(fds);
			return 0;
		}
		for (i = 0; i < a.count; i++)
			irq_loopback(s, a.index, a.start + i);
		return 0;
	case VFIO_IRQ_SET_DATA_BOOL:
		if (m->len < sizeof(a) + a.count)
			return -EINVAL;
		for (i = 0; i < a.count; i++)
			if (m->data[sizeof(a) + i])
				irq_loopback(s, a.index, a.start + i);
		return 0;
	default:		/* DATA_EVENTFD */
		if (!a.count && m->nr_fds)
			return -EINVAL;
		if (!fds)
			return a.count ? -EINVAL : 0;
		/* No fd at all: de-assign; else one fd per vector. */
		if (m->nr_fds && m->nr_fds != a.count)
			return -EINVAL;
		for (i = 0; i < a.count; i++) {
			int *slot = &fds[a.start + i];

			close_fd(slot);
			if (!m->nr_fds)
				continue;
			*slot = m->fds[i];
			m->fds[i] = -1;
			/* An eventfd never blocks us; anything else must not. */
			fcntl(*slot, F_SETFL, fcntl(*slot, F_GETFL) | O_NONBLOCK);
		}
		vfu_log(s, "SET_IRQS index %u vectors %u..%u %s", a.index,
			a.start, a.start + a.count, m->nr_fds ? "assigned" :
			"de-assigned");
		return 0;
	}
}

/*
 * Config space in naturally aligned pieces of 4, 2 or 1 bytes: the client
 * reads the whole of it at realize, the device takes register accesses.
 */
static void cfg_access(struct emu_device *dev, uint64_t off, uint8_t *buf,
		       uint32_t count, bool write)
{
	while (count) {
		uint32_t n = 4;

		while (n > count || off % n)
			n /= 2;
		if (write)
			emu_cfg_write(dev, off, n, get_le_bytes(buf, n));
		else
			put_le_bytes(buf, emu_cfg_read(dev, off, n), n);
		off += n;
		buf += n;
		count -= n;
	}
}

/* The access header of a REGION_READ/WRITE, checked against the region. */
static int get_region_access(struct vfu_server *s, const struct vfu_msg *m,
			     struct vfu_region_access *a)
{
	uint64_t size;
	int ret;

	ret = get_args(m, a, sizeof(*a), false);
	if (ret)
		return ret;
	if (a->region >= VFIO_PCI_NUM_REGIONS)
		return -EINVAL;
	size = region_size(s, a->region);
	if (!a->count || a->count > VFU_MAX_DATA_XFER ||
	    a->offset >= size || a->count > size - a->offset)
		return -EINVAL;
	return 0;
}

static int do_region_read(struct vfu_server *s, struct vfu_msg *m,
			  struct vfu_reply *r)
{
	struct vfu_region_access a;
	uint8_t *buf;
	int ret;

	ret = get_region_access(s, m, &a);
	if (ret)
		return ret;
	buf = malloc(a.count);
	if (!buf)
		return -ENOMEM;
	if (a.region == VFIO_PCI_CONFIG_REGION_INDEX)
		cfg_access(s->dev, a.offset, buf, a.count, false);
	else
		emu_mmio_read(s->dev, a.region, a.offset, buf, a.count);
	reply_small(r, &a, sizeof(a));
	r->b = r->owned = buf;
	r->blen = a.count;
	return 0;
}

static int do_region_write(struct vfu_server *s, struct vfu_msg *m,
			   struct vfu_reply *r)
{
	struct vfu_region_access a;
	uint8_t *data = m->data + sizeof(a);
	int ret;

	ret = get_region_access(s, m, &a);
	if (ret)
		return ret;
	if (m->len - sizeof(a) != a.count)
		return -EINVAL;
	if (a.region == VFIO_PCI_CONFIG_REGION_INDEX)
		cfg_access(s->dev, a.offset, data, a.count, true);
	else
		emu_mmio_write(s->dev, a.region, a.offset, data, a.count);
	return reply_small(r, &a, sizeof(a));
}

static int do_reset(struct vfu_server *s, struct vfu_msg *m,
		    struct vfu_reply *r)
{
	(void)m;
	(void)r;
	vfu_log(s, "DEVICE_RESET");
	s->stats.resets++;
	emu_device_reset(s->dev);
	return 0;
}

typedef int (*vfu_handler)(struct vfu_server *s, struct vfu_msg *m,
			   struct vfu_reply *r);

static const vfu_handler handlers[] = {
	[VFU_VERSION] = do_version,
	[VFU_DMA_MAP] = do_dma_map,
	[VFU_DMA_UNMAP] = do_dma_unmap,
	[VFU_DEVICE_GET_INFO] = do_get_info,
	[VFU_DEVICE_GET_REGION_INFO] = do_region_info,
	[VFU_DEVICE_GET_IRQ_INFO] = do_irq_info,
	[VFU_DEVICE_SET_IRQS] = do_set_irqs,
	[VFU_REGION_READ] = do_region_read,
	[VFU_REGION_WRITE] = do_region_write,
	[VFU_DEVICE_RESET] = do_reset,
};

static void handle_request(struct vfu_server *s, struct vfu_msg *m)
{
	struct vfu_reply r = { 0 };
	vfu_handler h = NULL;
	int ret;

	s->stats.messages++;
	if (m->hdr.cmd < sizeof(handlers) / sizeof(handlers[0]))
		h = handlers[m->hdr.cmd];
	if (!h) {
		ret = -ENOTSUP;
		s->stats.unsupported++;
	} else if (m->fds_truncated) {
		ret = -EINVAL;		/* more fds than max_msg_fds */
	} else if (!s->version_done && m->hdr.cmd != VFU_VERSION) {
		ret = -EINVAL;		/* VERSION comes first */
	} else {
		ret = h(s, m, &r);
	}
	if (ret) {
		s->stats.bad_requests++;
		s->dev->counters.cmd_bad++;
		vfu_log(s, "cmd %u id %u: %s", m->hdr.cmd, m->hdr.id,
			strerror(-ret));
	}
	/* A posted write wants no answer, not even an error. */
	if (!(m->hdr.flags & VFU_F_NO_REPLY))
		send_reply(s, &m->hdr, -ret, r.a, r.alen, r.b, r.blen);
	free(r.owned);
}

/* A reply to one of our DMA_READ/WRITE, at whatever nesting depth. */
static void handle_reply(struct vfu_server *s, struct vfu_msg *m)
{
	struct vfu_dma_rw rw;
	struct vfu_wait *w = NULL;
	unsigned int i;

	for (i = 0; i < s->nr_waits; i++)
		if (!s->waits[i]->done && s->waits[i]->id == m->hdr.id &&
		    s->waits[i]->cmd == m->hdr.cmd)
			w = s->waits[i];
	if (!w) {
		s->dev->counters.cmd_bad++;
		vfu_log(s, "reply %u cmd %u to nothing", m->hdr.id, m->hdr.cmd);
		return;
	}
	w->done = true;
	if (m->hdr.flags & VFU_F_ERROR) {
		w->error = m->hdr.error ? -(int)m->hdr.error : -EIO;
		return;
	}
	if (w->cmd != VFU_DMA_READ)
		return;
	if (m->len != sizeof(rw) + w->len) {
		w->error = -EPROTO;
		return;
	}
	memcpy(&rw, m->data, sizeof(rw));
	if (rw.count != w->len)
		w->error = -EPROTO;
	else
		memcpy(w->buf, m->data + sizeof(rw), w->len);
}

/* Receive one message and act on it. */
static int handle_one(struct vfu_server *s)
{
	struct vfu_msg m;
	int ret;

	ret = recv_msg(s, &m);
	if (ret) {
		msg_free(&m);
		s->broken = true;
		return ret;
	}
	if ((m.hdr.flags & VFU_F_TYPE_MASK) == VFU_F_TYPE_REPLY)
		handle_reply(s, &m);
	else
		handle_request(s, &m);
	msg_free(&m);
	return s->broken ? -ECONNRESET : 0;
}

/* One DMA_READ/WRITE of at most client_max_xfer bytes, and its reply. */
static int dma_msg(struct vfu_server *s, uint16_t cmd, uint64_t addr,
		   void *rbuf, const void *wbuf, uint64_t len)
{
	struct vfu_dma_rw rw = { .addr = addr, .count = len };
	struct vfu_wait w = {
		.id = s->next_id++, .cmd = cmd, .buf = rbuf, .len = len,
	};
	struct vfu_hdr hdr = {
		.id = w.id,
		.cmd = cmd,
		.size = (uint32_t)(VFU_HDR_SIZE + sizeof(rw) +
				   (cmd == VFU_DMA_WRITE ? len : 0)),
		.flags = VFU_F_TYPE_CMD,
	};
	int ret;

	s->stats.dma_msgs++;
	ret = send_all(s, &hdr, &rw, sizeof(rw), wbuf,
		       cmd == VFU_DMA_WRITE ? len : 0);
	if (ret)
		return ret;
	s->waits[s->nr_waits++] = &w;
	while (!w.done && !s->broken)
		handle_one(s);
	s->nr_waits--;
	if (!w.done)
		return -EIO;
	return w.error;
}

static int dma_by_msg(struct vfu_server *s, uint16_t cmd, uint64_t addr,
		      void *rbuf, const void *wbuf, uint64_t len)
{
	uint64_t done, n;
	int ret = 0;

	if (s->sock_fd < 0 || s->broken)
		return -EIO;
	if (s->nr_waits == VFU_MAX_NESTED_DMA) {
		vfu_log(s, "DMA by messages nested too deep");
		return -EBUSY;
	}
	for (done = 0; done < len && !ret; done += n) {
		n = len - done < s->client_max_xfer ? len - done :
						      s->client_max_xfer;
		ret = dma_msg(s, cmd, addr + done,
			      rbuf ? (uint8_t *)rbuf + done : NULL,
			      wbuf ? (const uint8_t *)wbuf + done : NULL, n);
	}
	return ret;		/* device.c reports a failure as a DMA fault */
}

int vfu_handle_message(struct vfu_server *s)
{
	return handle_one(s);
}

static int accept_client(struct vfu_server *s)
{
	int fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	/* One client, once: a second connect is refused. */
	close_fd(&s->listen_fd);
	vfu_attach(s, fd);
	vfu_log(s, "client connected");
	return 0;
}

int vfu_dispatch(struct vfu_server *s, const struct pollfd *pfds,
		 unsigned int nr)
{
	if (!nr || !pfds[0].revents)
		return 0;
	if (s->sock_fd < 0)
		return accept_client(s) ? -ECONNRESET : 0;
	if (handle_one(s)) {
		vfu_log(s, "client gone");
		close_fd(&s->sock_fd);
		return -ECONNRESET;
	}
	return 0;
}

void vfu_stats_print(const struct vfu_stats *st, FILE *out)
{
	fprintf(out, "vfu_messages %" PRIu64 "\n", st->messages);
	fprintf(out, "vfu_bad_requests %" PRIu64 "\n", st->bad_requests);
	fprintf(out, "vfu_unsupported %" PRIu64 "\n", st->unsupported);
	fprintf(out, "vfu_protocol_errors %" PRIu64 "\n", st->protocol_errors);
	fprintf(out, "vfu_dma_maps %" PRIu64 "\n", st->dma_maps);
	fprintf(out, "vfu_dma_maps_refused %" PRIu64 "\n", st->dma_maps_refused);
	fprintf(out, "vfu_dma_unmaps %" PRIu64 "\n", st->dma_unmaps);
	fprintf(out, "vfu_dma_msgs %" PRIu64 "\n", st->dma_msgs);
	fprintf(out, "vfu_irqs %" PRIu64 "\n", st->irqs);
	fprintf(out, "vfu_resets %" PRIu64 "\n", st->resets);
}
