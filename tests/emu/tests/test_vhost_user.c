// SPDX-License-Identifier: GPL-2.0-only
/*
 * vhost-user end to end, without UML: a fake frontend in this process
 * talks to the backend over a socketpair the way virtio_uml does, shares a
 * memfd as guest memory, sets up the cmd and irq virtqueues in it, and
 * drives config reads, writes and an MSI through them.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/pci_regs.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "device.h"
#include "emu_test.h"
#include "vhost_user.h"
#include "virtio_pcidev.h"

#define GPA		0x40000000ULL	/* where "guest memory" starts */
#define MEM_SIZE	0x100000ULL
#define FILE_OFF	0x1000ULL	/* region starts this far into the fd */
#define QSZ		8

/* Ring i: desc at RING(i), avail at +0x1000, used at +0x2000. */
#define RING(i)		(GPA + (i) * 0x4000)
#define BUF		(GPA + 0x10000)

static struct emu_device dev;
static struct vu_dev vu;
static struct vpci vpci;
static int fe;			/* frontend end of the socket */
static uint8_t *guest;		/* the frontend's view of guest memory */
static int kick[2], call[2], backend_req[2];

static void *G(uint64_t gpa)
{
	return guest + (gpa - GPA);
}

static void fe_send(uint32_t req, uint32_t flags, const void *payload,
		    uint32_t size, const int *fds, unsigned int nr_fds)
{
	uint32_t hdr[3] = { req, VU_VERSION | flags, size };
	char cbuf[CMSG_SPACE(4 * sizeof(int))] = { 0 };
	struct iovec iov[2] = {
		{ hdr, sizeof(hdr) }, { (void *)payload, size },
	};
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };

	if (nr_fds) {
		struct cmsghdr *cm;

		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE(nr_fds * sizeof(int));
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(nr_fds * sizeof(int));
		memcpy(CMSG_DATA(cm), fds, nr_fds * sizeof(int));
	}
	CHECK_EQ(sendmsg(fe, &mh, 0), sizeof(hdr) + size);
	/* Single-threaded: let the backend handle it right away. */
	CHECK_EQ(vu_handle_message(&vu), 0);
}

static uint64_t fe_recv_u64(uint32_t req)
{
	uint32_t hdr[3];
	uint64_t val = ~0ULL;

	CHECK_EQ(recv(fe, hdr, sizeof(hdr), MSG_DONTWAIT), sizeof(hdr));
	CHECK_EQ(hdr[0], req);
	CHECK_EQ(hdr[1], VU_VERSION | VU_FLAG_REPLY);
	CHECK_EQ(hdr[2], sizeof(val));
	CHECK_EQ(recv(fe, &val, sizeof(val), MSG_DONTWAIT), sizeof(val));
	return val;
}

/* Send with REPLY_ACK and return the status the backend acked with. */
static uint64_t fe_send_acked(uint32_t req, const void *payload,
			      uint32_t size, const int *fds,
			      unsigned int nr_fds)
{
	fe_send(req, VU_FLAG_NEED_REPLY, payload, size, fds, nr_fds);
	return fe_recv_u64(req);
}

static void fe_nothing_pending(void)
{
	char c;

	CHECK(recv(fe, &c, 1, MSG_DONTWAIT) < 0 && errno == EAGAIN);
}

static void negotiate(void)
{
	uint64_t f, pf;

	fe_send(VU_SET_OWNER, 0, NULL, 0, NULL, 0);
	fe_nothing_pending();

	fe_send(VU_GET_FEATURES, 0, NULL, 0, NULL, 0);
	f = fe_recv_u64(VU_GET_FEATURES);
	CHECK(f & (1ULL << VIRTIO_F_VERSION_1));
	CHECK(f & (1ULL << VU_F_PROTOCOL_FEATURES));

	fe_send(VU_GET_PROTOCOL_FEATURES, 0, NULL, 0, NULL, 0);
	pf = fe_recv_u64(VU_GET_PROTOCOL_FEATURES);
	CHECK(pf & (1ULL << VU_PROTOCOL_F_BACKEND_REQ));
	CHECK(pf & (1ULL << VU_PROTOCOL_F_REPLY_ACK));

	/* virtio_uml masks with what it supports, then acks the result. */
	pf &= (1ULL << VU_PROTOCOL_F_REPLY_ACK) |
	      (1ULL << VU_PROTOCOL_F_BACKEND_REQ) |
	      (1ULL << VU_PROTOCOL_F_CONFIG) |
	      (1ULL << VU_PROTOCOL_F_INBAND_NOTIFICATIONS);
	CHECK_EQ(fe_send_acked(VU_SET_PROTOCOL_FEATURES, &pf, 8, NULL, 0), 0);
	CHECK_EQ(fe_send_acked(VU_SET_BACKEND_REQ_FD, NULL, 0,
			       &backend_req[1], 1), 0);
	CHECK_EQ(fe_send_acked(VU_SET_FEATURES, &f, 8, NULL, 0), 0);
	CHECK_EQ(vu.protocol_features, pf);
	CHECK(vu.backend_req_fd >= 0);
}

static void share_memory(void)
{
	struct {
		uint32_t num, padding;
		uint64_t gpa, size, uva, mmap_offset;
	} __attribute__((packed)) table = {
		.num = 1, .gpa = GPA, .size = MEM_SIZE, .uva = GPA,
		.mmap_offset = FILE_OFF,
	};
	int fd = memfd_create("guest", MFD_CLOEXEC);
	void *map;

	CHECK(fd >= 0);
	CHECK_EQ(ftruncate(fd, FILE_OFF + MEM_SIZE), 0);
	map = mmap(NULL, FILE_OFF + MEM_SIZE, PROT_READ | PROT_WRITE,
		   MAP_SHARED, fd, 0);
	CHECK(map != MAP_FAILED);
	guest = (uint8_t *)map + FILE_OFF;
	CHECK_EQ(fe_send_acked(VU_SET_MEM_TABLE, &table, sizeof(table), &fd, 1),
		 0);
	close(fd);	/* the backend has its own mapping now */
	CHECK_EQ(vu.mem.nr_regions, 1);
}

static void setup_vring(unsigned int i)
{
	uint32_t state[2] = { i, QSZ };
	uint32_t base[2] = { i, 0 };
	struct {
		uint32_t index, flags;
		uint64_t desc, used, avail, log;
	} __attribute__((packed)) addr = {
		.index = i, .desc = RING(i), .avail = RING(i) + 0x1000,
		.used = RING(i) + 0x2000, .log = ~0ULL,
	};
	uint64_t idx = i;

	call[i] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	kick[i] = eventfd(0, EFD_CLOEXEC);
	CHECK_EQ(fe_send_acked(VU_SET_VRING_CALL, &idx, 8, &call[i], 1), 0);
	CHECK_EQ(fe_send_acked(VU_SET_VRING_NUM, state, 8, NULL, 0), 0);
	CHECK_EQ(fe_send_acked(VU_SET_VRING_BASE, base, 8, NULL, 0), 0);
	CHECK_EQ(fe_send_acked(VU_SET_VRING_ADDR, &addr, sizeof(addr), NULL, 0),
		 0);
}

static void start_vring(unsigned int i)
{
	uint32_t enable[2] = { i, 1 };
	uint64_t idx = i;

	CHECK_EQ(fe_send_acked(VU_SET_VRING_KICK, &idx, 8, &kick[i], 1), 0);
	CHECK_EQ(fe_send_acked(VU_SET_VRING_ENABLE, enable, 8, NULL, 0), 0);
	CHECK(vu_vring_ready(&vu.vrings[i]));
}

/* Let the backend serve whatever poll() reports, like main.c does. */
static void backend_poll(void)
{
	struct pollfd pfds[VU_MAX_POLLFDS];
	unsigned int n = vu_pollfds(&vu, pfds, VU_MAX_POLLFDS);

	CHECK(poll(pfds, n, 1000) > 0);
	CHECK_EQ(vu_dispatch(&vu, pfds, n), 0);
}

static uint16_t avail_idx[2];

/* Add a chain of @n descriptors starting at slot @first and kick. */
static void post_chain(unsigned int q, uint16_t first, unsigned int n,
		       const uint64_t *addr, const uint32_t *len,
		       const bool *writable)
{
	struct vring_desc *desc = G(RING(q));
	struct vring_avail *avail = G(RING(q) + 0x1000);
	unsigned int i;

	for (i = 0; i < n; i++) {
		desc[first + i].addr = addr[i];
		desc[first + i].len = len[i];
		desc[first + i].flags = (writable[i] ? VRING_DESC_F_WRITE : 0) |
					(i + 1 < n ? VRING_DESC_F_NEXT : 0);
		desc[first + i].next = first + i + 1;
	}
	avail->ring[avail_idx[q] % QSZ] = first;
	__atomic_store_n(&avail->idx, ++avail_idx[q], __ATOMIC_RELEASE);
	CHECK_EQ(eventfd_write(kick[q], 1), 0);
}

static struct vring_used_elem used_elem(unsigned int q, uint16_t n)
{
	struct vring_used *used = G(RING(q) + 0x2000);

	return used->ring[n % QSZ];
}

static uint16_t used_idx(unsigned int q)
{
	struct vring_used *used = G(RING(q) + 0x2000);

	return __atomic_load_n(&used->idx, __ATOMIC_ACQUIRE);
}

static void check_called(unsigned int q)
{
	eventfd_t v = 0;

	CHECK_EQ(eventfd_read(call[q], &v), 0);
	CHECK(v >= 1);
}

static void test_setup(void)
{
	int sv[2];

	CHECK_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	CHECK_EQ(pipe2(backend_req, O_CLOEXEC), 0);
	if (emu_device_init(&dev, true))
		abort();
	vu_init(&vu, VPCI_NR_VQS, &vpci_vu_ops, &vpci);
	vpci_init(&vpci, &dev, &vu);
	vu_attach(&vu, sv[1]);
	fe = sv[0];

	negotiate();
	share_memory();
	setup_vring(0);
	setup_vring(1);
	start_vring(0);
	start_vring(1);
	CHECK_EQ(vu.stats.protocol_errors, 0);
}

static void test_refused_requests(void)
{
	uint32_t bad_num[2] = { 0, 6 };		/* not a power of two */
	uint32_t bad_index[2] = { 5, 8 };	/* no such ring */
	uint64_t nofd_with_fd = 0 | VU_VRING_NOFD_MASK;
	int fd = eventfd(0, EFD_CLOEXEC);

	CHECK_EQ(fe_send_acked(VU_SET_VRING_NUM, bad_num, 8, NULL, 0), 1);
	CHECK_EQ(fe_send_acked(VU_SET_VRING_NUM, bad_index, 8, NULL, 0), 1);
	CHECK_EQ(fe_send_acked(VU_SET_VRING_KICK, &nofd_with_fd, 8, &fd, 1), 1);
	CHECK_EQ(fe_send_acked(99, NULL, 0, NULL, 0), 1);
	CHECK_EQ(vu.stats.protocol_errors, 4);
	/* The rings survived the bad requests. */
	CHECK_EQ(vu.vrings[0].num, QSZ);
	CHECK(vu_vring_ready(&vu.vrings[0]));
	close(fd);
}

static void test_cfg_read_via_queue(void)
{
	struct virtio_pcidev_msg hdr = {
		.op = VIRTIO_PCIDEV_OP_CFG_READ, .size = 4, .addr = PCI_VENDOR_ID,
	};
	uint64_t addr[2] = { BUF, BUF + 0x100 };
	uint32_t len[2] = { sizeof(hdr), 8 };
	bool wr[2] = { false, true };
	struct vring_used_elem e;
	uint32_t id;

	memcpy(G(BUF), &hdr, sizeof(hdr));
	memset(G(BUF + 0x100), 0xff, 8);
	post_chain(0, 0, 2, addr, len, wr);
	backend_poll();

	CHECK_EQ(used_idx(0), 1);
	e = used_elem(0, 0);
	CHECK_EQ(e.id, 0);
	CHECK_EQ(e.len, 4);
	memcpy(&id, G(BUF + 0x100), 4);
	CHECK_EQ(id, 0xa10017cb);
	check_called(0);
}

/* A posted write: header and data in one readable descriptor. */
static void post_cfg_write(uint16_t slot, uint64_t off, uint32_t size,
			   uint32_t val)
{
	struct virtio_pcidev_msg hdr = {
		.op = VIRTIO_PCIDEV_OP_CFG_WRITE, .size = size, .addr = off,
	};
	uint64_t addr = BUF + 0x200 + slot * 0x40;
	uint32_t len = sizeof(hdr) + 8;
	bool wr = false;

	memcpy(G(addr), &hdr, sizeof(hdr));
	memcpy(G(addr + sizeof(hdr)), &val, sizeof(val));
	post_chain(0, slot, 1, &addr, &len, &wr);
}

static void test_posted_writes(void)
{
	/* Several writes queued before the backend looks: all served. */
	post_cfg_write(2, PCI_COMMAND, 2, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	post_cfg_write(3, EMU_CAP_MSIX + PCI_MSIX_FLAGS, 2, PCI_MSIX_FLAGS_ENABLE);
	post_cfg_write(4, PCI_INTERRUPT_LINE, 1, 9);
	backend_poll();
	CHECK_EQ(used_idx(0), 4);
	CHECK_EQ(used_elem(0, 3).len, 0);
	CHECK_EQ(emu_cfg_read(&dev, PCI_INTERRUPT_LINE, 1), 9);
	CHECK(emu_pci_bus_master(&dev.pci));
	check_called(0);
}

static void test_msi_via_irq_queue(void)
{
	uint64_t entry = EMU_MSIX_TABLE_OFF + 1 * PCI_MSIX_ENTRY_SIZE;
	uint32_t vals[4] = { 0xa0000, 0, 0x33, 0 };	/* unmasked */
	uint64_t addr = BUF + 0x1000;
	uint32_t len = 20;
	bool wr = true;
	struct virtio_pcidev_msg msg;
	uint32_t data;

	emu_mmio_write(&dev, 4, entry, vals, sizeof(vals));

	/* No irq buffer posted yet: the MSI waits in the backlog. */
	CHECK_EQ(emu_irq_raise(&dev, 1), EMU_IRQ_SEND);
	CHECK_EQ(dev.counters.irq_deferred, 1);
	CHECK_EQ(used_idx(1), 0);

	post_chain(1, 0, 1, &addr, &len, &wr);
	backend_poll();
	CHECK_EQ(used_idx(1), 1);
	CHECK_EQ(used_elem(1, 0).len, sizeof(msg) + 4);
	memcpy(&msg, G(addr), sizeof(msg));
	memcpy(&data, G(addr + sizeof(msg)), 4);
	CHECK_EQ(msg.op, VIRTIO_PCIDEV_OP_MSI);
	CHECK_EQ(msg.size, 4);
	CHECK_EQ(msg.addr, 0xa0000);
	CHECK_EQ(data, 0x33);
	CHECK_EQ(dev.counters.irq_sent, 1);
	check_called(1);
}

static void test_bad_chain(void)
{
	uint64_t addr[2] = { BUF, GPA + MEM_SIZE - 4 };	/* runs off the end */
	uint32_t len[2] = { 16, 8 };
	bool wr[2] = { false, true };
	uint16_t before = used_idx(0);

	post_chain(0, 5, 2, addr, len, wr);
	backend_poll();
	CHECK_EQ(used_idx(0), (uint16_t)(before + 1));
	CHECK_EQ(used_elem(0, before).id, 5);
	CHECK_EQ(used_elem(0, before).len, 0);
	CHECK_EQ(vu.stats.bad_chains, 1);
}

static void test_disconnect(void)
{
	struct pollfd pfds[VU_MAX_POLLFDS];
	unsigned int n;

	close(fe);
	n = vu_pollfds(&vu, pfds, VU_MAX_POLLFDS);
	CHECK(poll(pfds, n, 1000) > 0);
	CHECK_EQ(vu_dispatch(&vu, pfds, n), -ECONNRESET);
	vu_close(&vu);
	CHECK(!vu_connected(&vu));
}

int main(void)
{
	RUN(test_setup);
	RUN(test_refused_requests);
	RUN(test_cfg_read_via_queue);
	RUN(test_posted_writes);
	RUN(test_msi_via_irq_queue);
	RUN(test_bad_chain);
	RUN(test_disconnect);
	emu_device_fini(&dev);
	return emu_test_exit();
}
