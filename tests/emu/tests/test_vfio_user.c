// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vfio-user server driven over a socketpair as QEMU's client drives
 * it: version negotiation, region and irq info, config and BAR accesses,
 * DMA maps with and without an fd, eventfd interrupts, and malformed
 * messages that must get an error (or drop the connection), never a
 * crash or a leaked fd.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/pci_regs.h>
#include <linux/vfio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "emu_test.h"
#include "vfio_user.h"

static const char client_caps[] =
	"{\"capabilities\": {\"pgsizes\": 4096, \"max_msg_fds\": 16, "
	"\"max_dma_maps\": 65535, \"max_data_xfer_size\": 1048576, "
	"\"migration\": {\"max_bitmap_size\": 268435456, \"pgsize\": 4096}, "
	"\"write_multiple\": true}}";

static struct emu_device dev;
static struct vfu_server srv;
static int cli = -1;
static uint16_t next_id = 0x100;

/* Reply as the client sees it. */
static struct vfu_hdr rhdr;
static uint8_t rbuf[8192];

static void send_raw(const void *buf, size_t len, const int *fds,
		     unsigned int nfds)
{
	char cbuf[CMSG_SPACE(32 * sizeof(int))] = { 0 };
	struct iovec iov = { (void *)buf, len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (nfds) {
		struct cmsghdr *c;

		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	CHECK_EQ(sendmsg(cli, &mh, 0), (ssize_t)len);
}

static uint16_t send_cmd(uint16_t cmd, uint32_t flags, const void *p,
			 size_t len, const int *fds, unsigned int nfds)
{
	uint8_t buf[VFU_HDR_SIZE + 4200];
	struct vfu_hdr h = {
		.id = next_id++, .cmd = cmd, .size = (uint32_t)(VFU_HDR_SIZE + len),
		.flags = flags,
	};

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), p, len);
	send_raw(buf, VFU_HDR_SIZE + len, fds, nfds);
	return h.id;
}

/* The next message from the server, without waiting: its payload length. */
static int recv_reply(void)
{
	ssize_t n = recv(cli, &rhdr, sizeof(rhdr), MSG_DONTWAIT);

	if (n != sizeof(rhdr))
		return -1;
	if (rhdr.size < VFU_HDR_SIZE || rhdr.size - VFU_HDR_SIZE > sizeof(rbuf))
		return -1;
	n = rhdr.size - VFU_HDR_SIZE;
	if (n && recv(cli, rbuf, (size_t)n, MSG_DONTWAIT) != n)
		return -1;
	return (int)n;
}

/*
 * One request and its reply: payload length, or -errno of an error
 * reply.
 */
static int xact_fds(uint16_t cmd, const void *p, size_t len, const int *fds,
		    unsigned int nfds)
{
	uint16_t id = send_cmd(cmd, 0, p, len, fds, nfds);
	int n;

	CHECK_EQ(vfu_handle_message(&srv), 0);
	n = recv_reply();
	CHECK(n >= 0);
	CHECK_EQ(rhdr.id, id);
	CHECK_EQ(rhdr.cmd, cmd);
	CHECK_EQ(rhdr.flags & VFU_F_TYPE_MASK, VFU_F_TYPE_REPLY);
	if (rhdr.flags & VFU_F_ERROR)
		return -(int)rhdr.error;
	return n;
}

static int xact(uint16_t cmd, const void *p, size_t len)
{
	return xact_fds(cmd, p, len, NULL, 0);
}

static int negotiate(const char *json)
{
	uint8_t buf[512];
	struct vfu_version v = { 0, 0 };
	size_t len = sizeof(v) + strlen(json) + 1;

	memcpy(buf, &v, sizeof(v));
	memcpy(buf + sizeof(v), json, strlen(json) + 1);
	return xact(VFU_VERSION, buf, len);
}

static void setup(bool msix)
{
	int sv[2];

	CHECK_EQ(emu_device_init(&dev, msix), 0);
	vfu_init(&srv, &dev);
	CHECK_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	vfu_attach(&srv, sv[0]);
	cli = sv[1];
}

static void setup_negotiated(void)
{
	setup(true);
	CHECK(negotiate(client_caps) > 0);
}

static void teardown(void)
{
	vfu_close(&srv);
	close(cli);
	cli = -1;
	emu_device_fini(&dev);
}

static int region_rw(uint16_t cmd, uint32_t flags, uint32_t region,
		     uint64_t off, void *data, uint32_t count)
{
	uint8_t buf[sizeof(struct vfu_region_access) + 4096];
	struct vfu_region_access a = { off, region, count };
	size_t len = sizeof(a) + (cmd == VFU_REGION_WRITE ? count : 0);
	int n;

	memcpy(buf, &a, sizeof(a));
	if (cmd == VFU_REGION_WRITE)
		memcpy(buf + sizeof(a), data, count);
	if (flags & VFU_F_NO_REPLY) {
		send_cmd(cmd, flags, buf, len, NULL, 0);
		CHECK_EQ(vfu_handle_message(&srv), 0);
		return recv_reply();	/* -1: nothing came */
	}
	n = xact(cmd, buf, len);
	if (n >= (int)sizeof(a) && cmd == VFU_REGION_READ) {
		CHECK_EQ(n, sizeof(a) + count);
		memcpy(data, rbuf + sizeof(a), count);
	}
	return n;
}

static uint32_t cfg_read32(uint64_t off)
{
	uint32_t v = 0;

	CHECK(region_rw(VFU_REGION_READ, 0, VFIO_PCI_CONFIG_REGION_INDEX, off,
			&v, 4) > 0);
	return v;
}

static void cfg_write16(uint64_t off, uint16_t v)
{
	CHECK(region_rw(VFU_REGION_WRITE, 0, VFIO_PCI_CONFIG_REGION_INDEX, off,
			&v, 2) > 0);
}

static unsigned int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

static void test_version(void)
{
	const char *caps;
	int n;

	setup(true);
	/* Nothing but VERSION first. */
	CHECK_EQ(xact(VFU_DEVICE_RESET, NULL, 0), -EINVAL);
	n = negotiate(client_caps);
	CHECK(n > 4);
	CHECK(n <= (int)(sizeof(struct vfu_version) + sizeof(client_caps)));
	CHECK_EQ(((struct vfu_version *)rbuf)->major, 0);
	CHECK_EQ(((struct vfu_version *)rbuf)->minor, 0);
	caps = (const char *)rbuf + 4;
	CHECK_EQ(caps[n - 5], '\0');
	CHECK_EQ(strlen(caps), n - 5);
	CHECK(strstr(caps, "\"max_msg_fds\":16"));
	CHECK(strstr(caps, "\"max_data_xfer_size\":1048576"));
	CHECK(strstr(caps, "\"pgsizes\":4096"));
	CHECK_EQ(srv.client_max_xfer, 1048576);
	CHECK_EQ(srv.client_max_fds, 16);
	teardown();

	/* The reply never outgrows the request. */
	setup(true);
	n = negotiate("{ }");
	CHECK_EQ(n, 4 + 3);
	CHECK(!strcmp((const char *)rbuf + 4, "{}"));
	teardown();

	setup(true);
	CHECK_EQ(negotiate("{\"capabilities\": {"), -EINVAL);
	CHECK_EQ(negotiate("nonsense"), -EINVAL);
	CHECK_EQ(negotiate("{}}"), -EINVAL);
	CHECK_EQ(negotiate(""), -EINVAL);
	/* Short: no JSON at all, or not NUL-terminated, or major 1. */
	CHECK_EQ(xact(VFU_VERSION, "\0\0", 2), -EINVAL);
	CHECK_EQ(xact(VFU_VERSION, "\0\0\0\0{}", 6), -EINVAL);
	CHECK_EQ(xact(VFU_VERSION, "\1\0\0\0{}", 7), -EINVAL);
	CHECK_EQ(srv.stats.bad_requests, 7);
	CHECK(negotiate(client_caps) > 0);
	teardown();
}

static void test_info(void)
{
	static const uint64_t sizes[VFIO_PCI_NUM_REGIONS] = {
		EMU_BAR0_SIZE, 0, EMU_BAR2_SIZE, 0, EMU_BAR4_SIZE, 0, 0, 4096, 0,
	};
	struct vfio_device_info di = { .argsz = sizeof(di) };
	struct vfio_region_info ri = { .argsz = sizeof(ri) };
	struct vfio_irq_info ii = { .argsz = sizeof(ii) };
	uint32_t i;

	setup_negotiated();
	CHECK_EQ(xact(VFU_DEVICE_GET_INFO, &di, sizeof(di)), 16);
	memcpy(&di, rbuf, 16);
	CHECK_EQ(di.flags, VFIO_DEVICE_FLAGS_RESET | VFIO_DEVICE_FLAGS_PCI);
	CHECK_EQ(di.num_regions, 9);
	CHECK_EQ(di.num_irqs, 5);

	for (i = 0; i < VFIO_PCI_NUM_REGIONS; i++) {
		ri.index = i;
		CHECK_EQ(xact(VFU_DEVICE_GET_REGION_INFO, &ri, sizeof(ri)),
			 sizeof(ri));
		CHECK_EQ(((struct vfio_region_info *)rbuf)->size, sizes[i]);
		CHECK_EQ(((struct vfio_region_info *)rbuf)->index, i);
		CHECK_EQ(((struct vfio_region_info *)rbuf)->flags & VFIO_REGION_INFO_FLAG_MMAP, 0);
	}
	ri.index = 9;
	CHECK_EQ(xact(VFU_DEVICE_GET_REGION_INFO, &ri, sizeof(ri)), -EINVAL);
	ri.index = 0;
	ri.argsz = 8;
	CHECK_EQ(xact(VFU_DEVICE_GET_REGION_INFO, &ri, sizeof(ri)), -EINVAL);
	CHECK_EQ(xact(VFU_DEVICE_GET_REGION_INFO, &ri, 12), -EINVAL);

	for (i = 0; i < VFIO_PCI_NUM_IRQS; i++) {
		static const uint32_t count[] = { 0, 32, 32, 0, 0 };

		ii.index = i;
		CHECK_EQ(xact(VFU_DEVICE_GET_IRQ_INFO, &ii, sizeof(ii)), sizeof(ii));
		CHECK_EQ(((struct vfio_irq_info *)rbuf)->count, count[i]);
		CHECK_EQ(((struct vfio_irq_info *)rbuf)->flags &
			 VFIO_IRQ_INFO_NORESIZE, 0);
	}
	ii.index = 5;
	CHECK_EQ(xact(VFU_DEVICE_GET_IRQ_INFO, &ii, sizeof(ii)), -EINVAL);
	teardown();

	/* --no-msix: no MSI-X vectors to offer. */
	setup(false);
	CHECK(negotiate(client_caps) > 0);
	ii.index = VFIO_PCI_MSIX_IRQ_INDEX;
	CHECK_EQ(xact(VFU_DEVICE_GET_IRQ_INFO, &ii, sizeof(ii)), sizeof(ii));
	CHECK_EQ(((struct vfio_irq_info *)rbuf)->count, 0);
	teardown();
}

static void test_config_and_bar(void)
{
	static uint8_t cfg[4096];
	uint32_t v = 0xdeadbeef, back = 0;

	setup_negotiated();
	CHECK_EQ(cfg_read32(PCI_VENDOR_ID), 0xa10017cb);
	CHECK_EQ(cfg_read32(PCI_CLASS_REVISION) >> 8, 0x120000);
	/* QEMU reads all of config space at realize, in one go. */
	CHECK_EQ(region_rw(VFU_REGION_READ, 0, VFIO_PCI_CONFIG_REGION_INDEX, 0,
			   cfg, 4096), sizeof(struct vfu_region_access) + 4096);
	CHECK_EQ(cfg[PCI_CAPABILITY_LIST], EMU_CAP_MSI);
	CHECK_EQ(cfg[EMU_CAP_PCIE], PCI_CAP_ID_EXP);
	CHECK_EQ(region_rw(VFU_REGION_READ, 0, VFIO_PCI_CONFIG_REGION_INDEX,
			   4094, &v, 4), -EINVAL);

	/* BAR accesses need memory decoding, as on the bus. */
	region_rw(VFU_REGION_READ, 0, 4, 0x10, &back, 4);
	CHECK_EQ(back, 0xffffffff);
	cfg_write16(PCI_COMMAND, PCI_COMMAND_MEMORY);
	/* A posted write: no reply at all. */
	CHECK_EQ(region_rw(VFU_REGION_WRITE, VFU_F_NO_REPLY, 4, 0x10, &v, 4), -1);
	CHECK_EQ(region_rw(VFU_REGION_READ, 0, 4, 0x10, &back, 4),
		 sizeof(struct vfu_region_access) + 4);
	CHECK_EQ(back, 0xdeadbeef);
	CHECK_EQ(dev.counters.mmio_writes[4], 1);
	v = 0x12345678;
	CHECK_EQ(region_rw(VFU_REGION_WRITE, 0, 2, 0x20000, &v, 4),
		 sizeof(struct vfu_region_access));
	CHECK_EQ(region_rw(VFU_REGION_READ, 0, 2, 0x20000, &back, 4),
		 sizeof(struct vfu_region_access) + 4);
	CHECK_EQ(back, 0x12345678);

	/* Bad regions and ranges: errors, the device never sees them. */
	CHECK_EQ(region_rw(VFU_REGION_READ, 0, 1, 0, &back, 4), -EINVAL);
	CHECK_EQ(region_rw(VFU_REGION_READ, 0, 9, 0, &back, 4), -EINVAL);
	CHECK_EQ(region_rw(VFU_REGION_READ, 0, 0xffffffff, 0, &back, 4), -EINVAL);
	CHECK_EQ(region_rw(VFU_REGION_READ, 0, 0, EMU_BAR0_SIZE - 2, &back, 4),
		 -EINVAL);
	CHECK_EQ(region_rw(VFU_REGION_READ, 0, 0, ~0ull, &back, 4), -EINVAL);
	CHECK_EQ(region_rw(VFU_REGION_READ, 0, 0, 0, &back, 0), -EINVAL);
	CHECK_EQ(region_rw(VFU_REGION_READ, 0, 6, 0, &back, 4), -EINVAL);
	teardown();
}

static int dma_map(uint64_t iova, uint64_t size, uint32_t flags, int fd)
{
	struct vfu_dma_map m = { sizeof(m), flags, 0, iova, size };

	return xact_fds(VFU_DMA_MAP, &m, sizeof(m), &fd, fd >= 0 ? 1 : 0);
}

static int dma_unmap(uint64_t iova, uint64_t size, uint32_t flags)
{
	struct vfu_dma_unmap u = { sizeof(u), flags, iova, size };
	int n = xact(VFU_DMA_UNMAP, &u, sizeof(u));

	if (n >= 0) {
		CHECK_EQ(n, sizeof(u));
		CHECK(!memcmp(rbuf, &u, sizeof(u)));
	}
	return n;
}

static void test_dma_fd(void)
{
	const uint64_t iova = 0xfffff000ull, size = 0x10000;
	unsigned int fds_before;
	uint8_t out[64], in[64];
	uint8_t *ram;
	int fd, ro;

	setup_negotiated();
	fds_before = open_fds();
	fd = memfd_create("guest-ram", MFD_CLOEXEC);
	ro = memfd_create("guest-rom", MFD_CLOEXEC);
	CHECK_EQ(ftruncate(fd, size), 0);
	CHECK_EQ(ftruncate(ro, 0x1000), 0);
	ram = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(ram != MAP_FAILED);

	CHECK_EQ(dma_map(iova, size, VFU_DMA_READ_OK | VFU_DMA_WRITE_OK, fd), 0);
	CHECK_EQ(dma_map(0xc0000, 0x1000, VFU_DMA_READ_OK, ro), 0);
	CHECK_EQ(dma_map(iova + 0x1000, 0x1000, VFU_DMA_READ_OK, ro), -EEXIST);
	CHECK_EQ(srv.mem.nr_regions, 2);
	CHECK_EQ(srv.stats.dma_maps, 2);
	/* A map past the table's limit is refused and counted apart. */
	guest_mem_set_max_regions(&srv.mem, 2);
	CHECK_EQ(dma_map(iova + size, 0x1000, VFU_DMA_READ_OK, ro), -ENOSPC);
	CHECK_EQ(srv.stats.dma_maps_refused, 1);
	CHECK_EQ(srv.stats.dma_maps, 2);
	guest_mem_set_max_regions(&srv.mem, VFU_MAX_DMA_MAPS);

	cfg_write16(PCI_COMMAND, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	for (unsigned int i = 0; i < sizeof(out); i++)
		out[i] = (uint8_t)(i * 7);
	CHECK_EQ(emu_dma_write(&dev, iova + 0x100, out, sizeof(out)), 0);
	CHECK(!memcmp(ram + 0x100, out, sizeof(out)));
	ram[0x2000] = 0x5a;
	CHECK_EQ(emu_dma_read(&dev, iova + 0x2000, in, 1), 0);
	CHECK_EQ(in[0], 0x5a);
	CHECK_EQ(dev.counters.dma_refused, 0);

	/* Unmapped, straddling the end, read-only: refused and counted. */
	CHECK_EQ(emu_dma_write(&dev, 0x1000, out, 4), -EFAULT);
	CHECK_EQ(emu_dma_read(&dev, iova + size - 4, in, 8), -EFAULT);
	CHECK_EQ(emu_dma_write(&dev, 0xc0000, out, 4), -EFAULT);
	CHECK_EQ(emu_dma_read(&dev, 0xc0000, in, 4), 0);
	CHECK_EQ(dev.counters.dma_refused, 3);

	/* Unmap: the echo, then the range is gone. */
	CHECK_EQ(dma_unmap(iova + 0x800, 0x1000, 0), -EINVAL);
	CHECK_EQ(dma_unmap(iova, size, 0), sizeof(struct vfu_dma_unmap));
	CHECK_EQ(emu_dma_read(&dev, iova + 0x2000, in, 1), -EFAULT);
	CHECK_EQ(dev.counters.dma_refused, 4);
	CHECK_EQ(dma_unmap(0, 0, VFIO_DMA_UNMAP_FLAG_ALL),
		 sizeof(struct vfu_dma_unmap));
	CHECK_EQ(srv.mem.nr_regions, 0);
	CHECK_EQ(dma_unmap(0, 0x1000, VFIO_DMA_UNMAP_FLAG_GET_DIRTY_BITMAP),
		 -ENOTSUP);

	munmap(ram, size);
	close(fd);
	close(ro);
	/* The server kept no fd of the maps. */
	CHECK_EQ(open_fds(), fds_before);
	teardown();
}

/*
 * A map without an fd is reached by DMA_READ/WRITE messages. The test is
 * single-threaded, so the client's answers are queued before the device
 * asks: our first request gets id 0, the next id 1.
 */
static void test_dma_by_message(void)
{
	struct {
		struct vfu_hdr h;
		struct vfu_dma_rw rw;
		uint8_t data[8];
	} reply = {
		.h = { .id = 0, .cmd = VFU_DMA_READ, .size = sizeof(reply),
		       .flags = VFU_F_TYPE_REPLY },
		.rw = { 0x40000010, 8 },
		.data = "abcdefg",
	};
	struct vfu_region_access ra = { PCI_VENDOR_ID,
					VFIO_PCI_CONFIG_REGION_INDEX, 4 };
	uint8_t in[8] = { 0 };
	uint8_t msg[64];

	setup_negotiated();
	CHECK_EQ(dma_map(0x40000000, 0x1000, VFU_DMA_READ_OK | VFU_DMA_WRITE_OK,
			 -1), 0);
	cfg_write16(PCI_COMMAND, PCI_COMMAND_MASTER);

	/* While it waits, the server serves a config read from a vCPU. */
	send_cmd(VFU_REGION_READ, 0, &ra, sizeof(ra), NULL, 0);
	send_raw(&reply, sizeof(reply), NULL, 0);
	CHECK_EQ(emu_dma_read(&dev, 0x40000010, in, 8), 0);
	CHECK(!memcmp(in, "abcdefg", 8));
	/* What the client received: our DMA_READ, then its read's reply. */
	CHECK_EQ(recv(cli, msg, VFU_HDR_SIZE + 16, MSG_DONTWAIT), VFU_HDR_SIZE + 16);
	CHECK_EQ(((struct vfu_hdr *)msg)->cmd, VFU_DMA_READ);
	CHECK_EQ(((struct vfu_hdr *)msg)->size, 32);
	CHECK_EQ(((struct vfu_dma_rw *)(msg + 16))->addr, 0x40000010);
	CHECK_EQ(((struct vfu_dma_rw *)(msg + 16))->count, 8);
	CHECK_EQ(recv_reply(), sizeof(ra) + 4);
	CHECK_EQ(rhdr.cmd, VFU_REGION_READ);
	CHECK_EQ(*(uint32_t *)(rbuf + sizeof(ra)), 0xa10017cb);

	/* DMA_WRITE: data at byte 32; an error reply fails the DMA. */
	reply.h = (struct vfu_hdr){ .id = 1, .cmd = VFU_DMA_WRITE, .size = 16,
				    .flags = VFU_F_TYPE_REPLY | VFU_F_ERROR,
				    .error = EFAULT };
	send_raw(&reply, 16, NULL, 0);
	CHECK_EQ(emu_dma_write(&dev, 0x40000100, "12345678", 8), -EFAULT);
	CHECK_EQ(recv(cli, msg, 40, MSG_DONTWAIT), 40);
	CHECK_EQ(((struct vfu_hdr *)msg)->cmd, VFU_DMA_WRITE);
	CHECK_EQ(((struct vfu_hdr *)msg)->size, 40);
	CHECK(!memcmp(msg + 32, "12345678", 8));
	CHECK_EQ(dev.counters.dma_refused, 1);

	/* A reply of the wrong length is a failed DMA too. */
	reply.h = (struct vfu_hdr){ .id = 2, .cmd = VFU_DMA_READ, .size = 36,
				    .flags = VFU_F_TYPE_REPLY };
	send_raw(&reply, 36, NULL, 0);
	CHECK_EQ(emu_dma_read(&dev, 0x40000010, in, 8), -EPROTO);
	CHECK_EQ(recv(cli, msg, 32, MSG_DONTWAIT), 32);
	CHECK_EQ(srv.stats.dma_msgs, 3);

	/* The client going away mid-wait fails the DMA, no hang. */
	shutdown(cli, SHUT_WR);
	CHECK_EQ(emu_dma_read(&dev, 0x40000010, in, 8), -EIO);
	CHECK(srv.broken);
	teardown();
}

/*
 * The line the bench looks for, once per fault, at most 10 a second: what
 * an IOMMU fault in the guest would be.
 */
static void test_dma_fault_log(void)
{
	char log[4096] = { 0 };
	uint8_t b[16] = { 0 };
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	unsigned int lines = 0;
	char *p;

	setup_negotiated();
	cfg_write16(PCI_COMMAND, PCI_COMMAND_MASTER);
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	CHECK_EQ(emu_dma_write(&dev, 0xdead0000, b, 16), -EFAULT);
	for (unsigned int i = 0; i < 24; i++)
		emu_dma_read(&dev, 0x1000 * i, b, 4);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	CHECK(fread(log, 1, sizeof(log) - 1, tmp) > 0);
	fclose(tmp);
	CHECK(!strncmp(log, "qaic-emu: DMA fault: write iova 0xdead0000 len 16: not mapped\n",
		       strlen("qaic-emu: DMA fault: write iova 0xdead0000 len 16: not mapped\n")));
	for (p = log; (p = strstr(p, "qaic-emu: DMA fault:")); p++)
		lines++;
	CHECK_EQ(dev.counters.dma_refused, 25);
	/*
	 * 25 faults within one second: 10 lines, 15 counted; should a second
	 * begin meanwhile, one "N more not logged" line and up to 10 more.
	 */
	CHECK(lines >= 10 && lines <= 21);
	CHECK(dev.dma_faults_unlogged == 15 || lines > 10);
	teardown();
}

static int set_irqs(uint32_t flags, uint32_t index, uint32_t start,
		    uint32_t count, const int *fds, unsigned int nfds)
{
	struct vfio_irq_set s = { sizeof(s), flags, index, start, count };

	return xact_fds(VFU_DEVICE_SET_IRQS, &s, sizeof(s), fds, nfds);
}

static uint64_t efd_read(int fd)
{
	uint64_t v = 0;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

#define TRIGGER_EFD (VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER)
#define TRIGGER_NONE (VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER)

static void test_irqs(void)
{
	unsigned int fds_before;
	int efd[3];

	setup_negotiated();
	fds_before = open_fds();
	for (int i = 0; i < 3; i++)
		efd[i] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);

	/* QEMU enables MSI-X with no vector: flag, count 1, no fd. */
	CHECK_EQ(set_irqs(TRIGGER_EFD, VFIO_PCI_MSIX_IRQ_INDEX, 0, 1, NULL, 0), 0);
	CHECK_EQ(set_irqs(TRIGGER_EFD, VFIO_PCI_MSIX_IRQ_INDEX, 0, 2, efd, 2), 0);
	CHECK_EQ(set_irqs(TRIGGER_EFD, VFIO_PCI_MSIX_IRQ_INDEX, 17, 1, &efd[2], 1), 0);
	/* The guest enables MSI-X and bus mastering; the table is QEMU's. */
	cfg_write16(PCI_COMMAND, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	cfg_write16(EMU_CAP_MSIX + PCI_MSIX_FLAGS, PCI_MSIX_FLAGS_ENABLE);

	CHECK_EQ(emu_irq_raise(&dev, 1), EMU_IRQ_SEND);
	CHECK_EQ(emu_irq_raise(&dev, 17), EMU_IRQ_SEND);
	CHECK_EQ(emu_irq_raise(&dev, 17), EMU_IRQ_SEND);
	CHECK_EQ(efd_read(efd[0]), 0);
	CHECK_EQ(efd_read(efd[1]), 1);
	CHECK_EQ(efd_read(efd[2]), 2);
	CHECK_EQ(dev.counters.irq_sent, 3);
	/* A vector with no eventfd: dropped, counted. */
	emu_irq_raise(&dev, 5);
	CHECK_EQ(dev.counters.irq_dropped, 1);
	/* Loopback trigger through the client. */
	CHECK_EQ(set_irqs(TRIGGER_NONE, VFIO_PCI_MSIX_IRQ_INDEX, 1, 1, NULL, 0), 0);
	CHECK_EQ(efd_read(efd[1]), 1);

	/* De-assign one, then disable the index. */
	CHECK_EQ(set_irqs(TRIGGER_EFD, VFIO_PCI_MSIX_IRQ_INDEX, 1, 1, NULL, 0), 0);
	emu_irq_raise(&dev, 1);
	CHECK_EQ(efd_read(efd[1]), 0);
	CHECK_EQ(set_irqs(TRIGGER_NONE, VFIO_PCI_MSIX_IRQ_INDEX, 0, 0, NULL, 0), 0);
	emu_irq_raise(&dev, 17);
	CHECK_EQ(efd_read(efd[2]), 0);
	CHECK_EQ(dev.counters.irq_dropped, 3);

	/* Bad requests: past the vector count, fd count mismatch, masking. */
	CHECK_EQ(set_irqs(TRIGGER_EFD, VFIO_PCI_MSIX_IRQ_INDEX, 31, 2, efd, 2), -EINVAL);
	CHECK_EQ(set_irqs(TRIGGER_EFD, VFIO_PCI_MSIX_IRQ_INDEX, 0, 3, efd, 2), -EINVAL);
	CHECK_EQ(set_irqs(TRIGGER_EFD, VFIO_PCI_INTX_IRQ_INDEX, 0, 1, efd, 1), -EINVAL);
	CHECK_EQ(set_irqs(TRIGGER_NONE, VFIO_PCI_MSI_IRQ_INDEX, 0, 0, efd, 1), -EINVAL);
	CHECK_EQ(set_irqs(VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_DATA_NONE |
			  VFIO_IRQ_SET_ACTION_TRIGGER, VFIO_PCI_MSI_IRQ_INDEX, 0, 1,
			  efd, 1), -EINVAL);
	CHECK_EQ(set_irqs(VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_MASK,
			  VFIO_PCI_MSIX_IRQ_INDEX, 0, 1, NULL, 0), -ENOTSUP);
	CHECK_EQ(set_irqs(TRIGGER_EFD, 7, 0, 1, efd, 1), -EINVAL);

	/* MSI: the multi-message vectors, by the MSI eventfds. */
	cfg_write16(EMU_CAP_MSIX + PCI_MSIX_FLAGS, 0);
	cfg_write16(EMU_CAP_MSI + PCI_MSI_FLAGS, PCI_MSI_FLAGS_ENABLE | (5 << 4));
	CHECK_EQ(set_irqs(TRIGGER_EFD, VFIO_PCI_MSI_IRQ_INDEX, 0, 3, efd, 3), 0);
	CHECK_EQ(emu_irq_raise(&dev, 2), EMU_IRQ_SEND);
	CHECK_EQ(efd_read(efd[2]), 1);

	teardown();
	for (int i = 0; i < 3; i++)
		close(efd[i]);
	CHECK_EQ(open_fds(), fds_before - 2);	/* the socketpair is gone */
}

static void test_reset_and_flr(void)
{
	uint32_t v = 0x1234;

	setup_negotiated();
	emu_pci_set_flr(&dev.pci, true);
	cfg_write16(PCI_COMMAND, PCI_COMMAND_MEMORY);
	region_rw(VFU_REGION_WRITE, 0, 4, 0x10, &v, 4);
	CHECK_EQ(xact(VFU_DEVICE_RESET, NULL, 0), 0);
	CHECK_EQ(srv.stats.resets, 1);
	CHECK_EQ(cfg_read32(PCI_COMMAND) & 0xffff, 0);
	CHECK_EQ(dev.counters.flrs, 0);
	CHECK(dev.pci.irq_by_vector);

	/* The guest's FLR is a config write the device acts on. */
	cfg_write16(PCI_COMMAND, PCI_COMMAND_MEMORY);
	cfg_write16(EMU_CAP_PCIE + PCI_EXP_DEVCTL, PCI_EXP_DEVCTL_BCR_FLR);
	CHECK_EQ(dev.counters.flrs, 1);
	CHECK_EQ(cfg_read32(PCI_COMMAND) & 0xffff, 0);
	CHECK(dev.pci.irq_by_vector);
	CHECK(dev.pci.has_flr);
	teardown();
}

static void test_malformed(void)
{
	struct vfu_dma_map m = { sizeof(m), VFU_DMA_READ_OK, 0, 0x1000, 0x1000 };
	unsigned int fds_before;
	int fds[20];
	int n;

	setup_negotiated();
	fds_before = open_fds();
	for (int i = 0; i < 20; i++)
		fds[i] = memfd_create("x", MFD_CLOEXEC);
	for (int i = 0; i < 20; i++)
		CHECK_EQ(ftruncate(fds[i], 0x1000), 0);

	/* argsz too small, payload too short, bad flags, two fds. */
	m.argsz = 8;
	CHECK_EQ(xact_fds(VFU_DMA_MAP, &m, sizeof(m), fds, 1), -EINVAL);
	m.argsz = sizeof(m);
	CHECK_EQ(xact_fds(VFU_DMA_MAP, &m, 16, fds, 1), -EINVAL);
	m.flags = 0x80 | VFU_DMA_READ_OK;
	CHECK_EQ(xact_fds(VFU_DMA_MAP, &m, sizeof(m), fds, 1), -EINVAL);
	m.flags = VFU_DMA_READ_OK;
	CHECK_EQ(xact_fds(VFU_DMA_MAP, &m, sizeof(m), fds, 2), -EINVAL);
	/* Wrapping, empty, and more fds than max_msg_fds. */
	m.addr = ~0ull - 0xff;
	CHECK_EQ(xact_fds(VFU_DMA_MAP, &m, sizeof(m), NULL, 0), -EINVAL);
	m.addr = 0x1000;
	m.size = 0;
	CHECK_EQ(xact_fds(VFU_DMA_MAP, &m, sizeof(m), NULL, 0), -EINVAL);
	m.size = 0x1000;
	CHECK_EQ(xact_fds(VFU_DMA_MAP, &m, sizeof(m), fds, 20), -EINVAL);
	/* Unknown or refused commands. */
	CHECK_EQ(xact(VFU_DEVICE_FEATURE, &m, sizeof(m)), -ENOTSUP);
	CHECK_EQ(xact(VFU_DEVICE_GET_REGION_IO_FDS, &m, sizeof(m)), -ENOTSUP);
	CHECK_EQ(xact(0xffff, NULL, 0), -ENOTSUP);
	CHECK_EQ(xact(0, NULL, 0), -ENOTSUP);
	CHECK_EQ(xact(VFU_DEVICE_GET_INFO, NULL, 0), -EINVAL);
	/* A stray reply: counted, ignored. */
	send_cmd(VFU_DMA_READ, VFU_F_TYPE_REPLY, NULL, 0, NULL, 0);
	CHECK_EQ(vfu_handle_message(&srv), 0);
	CHECK_EQ(recv_reply(), -1);
	CHECK_EQ(srv.mem.nr_regions, 0);
	for (int i = 0; i < 20; i++)
		close(fds[i]);
	CHECK_EQ(open_fds(), fds_before);
	CHECK_EQ(srv.stats.protocol_errors, 0);
	CHECK_EQ(srv.stats.unsupported, 4);
	/* Still serving. */
	CHECK(negotiate(client_caps) > 0);
	teardown();

	/* A size below the header: framing broken, connection dropped. */
	setup_negotiated();
	{
		struct vfu_hdr h = { .id = 1, .cmd = VFU_DEVICE_RESET, .size = 8 };

		send_raw(&h, sizeof(h), NULL, 0);
		CHECK(vfu_handle_message(&srv) < 0);
		CHECK_EQ(srv.stats.protocol_errors, 1);
	}
	teardown();

	/* A size past any buffer. */
	setup_negotiated();
	{
		struct vfu_hdr h = { .id = 1, .cmd = VFU_REGION_WRITE,
				     .size = 0x7fffffff };

		send_raw(&h, sizeof(h), NULL, 0);
		CHECK(vfu_handle_message(&srv) < 0);
		CHECK_EQ(srv.stats.protocol_errors, 1);
	}
	teardown();

	/* A short header, then the client goes away. */
	setup_negotiated();
	send_raw("\1\0\1\0\x20\0", 6, NULL, 0);
	shutdown(cli, SHUT_WR);
	n = vfu_handle_message(&srv);
	CHECK(n < 0);
	teardown();

	/* A message that ends early (size says more than came). */
	setup_negotiated();
	{
		struct vfu_hdr h = { .id = 1, .cmd = VFU_REGION_WRITE, .size = 64 };

		send_raw(&h, sizeof(h), NULL, 0);
		send_raw("abc", 3, NULL, 0);
		shutdown(cli, SHUT_WR);
		CHECK(vfu_handle_message(&srv) < 0);
		CHECK_EQ(dev.counters.mmio_writes[0], 0);
	}
	teardown();
}

/* Random bytes as messages: errors or a dropped connection, no crash. */
static void test_fuzz(void)
{
	uint8_t buf[256];

	for (unsigned int round = 0; round < 200; round++) {
		struct vfu_hdr *h = (struct vfu_hdr *)buf;
		size_t len = 16 + emu_test_rnd() % (sizeof(buf) - 16);

		setup_negotiated();
		for (size_t i = 0; i < len; i++)
			buf[i] = (uint8_t)emu_test_rnd();
		h->cmd = (uint16_t)(emu_test_rnd() % 20);
		h->flags &= VFU_F_NO_REPLY;
		h->size = (uint32_t)len;
		send_raw(buf, len, NULL, 0);
		vfu_handle_message(&srv);
		teardown();
	}
	CHECK(1);
}

int main(void)
{
	RUN(test_version);
	RUN(test_info);
	RUN(test_config_and_bar);
	RUN(test_dma_fd);
	RUN(test_dma_by_message);
	RUN(test_dma_fault_log);
	RUN(test_irqs);
	RUN(test_reset_and_flr);
	RUN(test_malformed);
	RUN(test_fuzz);
	return emu_test_exit();
}
