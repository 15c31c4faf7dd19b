// SPDX-License-Identifier: GPL-2.0-only
/*
 * The qaic-emu program as the bench runs it: --ready appears once it
 * listens, it serves a frontend, exits 0 when the frontend goes away or on
 * SIGTERM, and leaves the counters behind.
 *
 * Usage: test-emu-main PATH-TO-qaic-emu
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emu_test.h"
#include "vfio_user.h"
#include "vhost_user.h"

static const char *emu_path;
static char dir[] = "/tmp/qaic-emu-test-XXXXXX";
static char sock_path[256], ready_path[256], counters_path[256];

static pid_t start_emu(void)
{
	pid_t pid;

	unlink(ready_path);
	unlink(counters_path);
	pid = fork();
	if (pid == 0) {
		execl(emu_path, emu_path, "--socket", sock_path, "--ready",
		      ready_path, "--counters", counters_path, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static bool wait_for_file(const char *path)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	struct stat st;
	int i;

	for (i = 0; i < 500; i++) {
		if (!stat(path, &st))
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

static int connect_emu(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	strcpy(addr.sun_path, sock_path);
	CHECK_EQ(connect(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	return fd;
}

static int wait_exit(pid_t pid)
{
	int status = -1;

	CHECK_EQ(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The value of @key in the counters file, or -1. */
static long long counter(const char *key)
{
	char k[64];
	long long v;
	FILE *f = fopen(counters_path, "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", k, &v) == 2) {
		if (!strcmp(k, key)) {
			fclose(f);
			return v;
		}
	}
	fclose(f);
	return -1;
}

static void test_serve_until_disconnect(void)
{
	uint32_t hdr[3] = { VU_GET_FEATURES, VU_VERSION, 0 };
	uint8_t reply[20];
	pid_t pid = start_emu();
	int fd;

	CHECK(wait_for_file(ready_path));
	fd = connect_emu();
	CHECK_EQ(write(fd, hdr, sizeof(hdr)), sizeof(hdr));
	CHECK_EQ(recv(fd, reply, sizeof(reply), MSG_WAITALL), sizeof(reply));
	close(fd);
	CHECK_EQ(wait_exit(pid), 0);
	CHECK_EQ(counter("vu_messages"), 1);
	CHECK_EQ(counter("cfg_reads"), 0);
	CHECK_EQ(counter("irq_sent"), 0);
}

static void test_sigterm(void)
{
	pid_t pid = start_emu();

	CHECK(wait_for_file(ready_path));
	kill(pid, SIGTERM);
	CHECK_EQ(wait_exit(pid), 0);
	CHECK_EQ(counter("vu_messages"), 0);
	CHECK_EQ(counter("mmio_reads_bar2"), 0);
	CHECK_EQ(counter("dbc_requests"), 0);
	CHECK_EQ(counter("dbc15_reads_rsptp"), 0);
}

static void test_garbage_frontend(void)
{
	uint32_t hdr[3] = { VU_SET_MEM_TABLE, VU_VERSION, 0x100000 };
	pid_t pid = start_emu();
	int fd;

	CHECK(wait_for_file(ready_path));
	fd = connect_emu();
	/* An absurd payload size: the emulator gives up, cleanly. */
	CHECK_EQ(write(fd, hdr, sizeof(hdr)), sizeof(hdr));
	CHECK_EQ(wait_exit(pid), 0);
	CHECK_EQ(counter("vu_protocol_errors"), 1);
	close(fd);
}

static void test_bad_usage(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		execl(emu_path, emu_path, "--socket", "/nonexistent/dir/sock",
		      (char *)NULL);
		_exit(127);
	}
	CHECK_EQ(wait_exit(pid), 1);
}

/* Bad DBC options are usage errors (exit 2); good ones start. */
static void test_dbc_options(void)
{
	static const char *const bad[][2] = {
		{ "--hang-dbc", "16" }, { "--hang-dbc", "x" },
		{ "--drop-dbc-rsp", "3:0" }, { "--corrupt-dbc-rsp", "1:" },
		{ "--dbc-mem-mb", "0" },
		{ "--boot", "sbl" }, { "--sahara-fault", "bogus" },
		{ "--sahara-fault", "corrupt,,x" }, { "--bhi-fault", "none" },
		{ "--sahara-case", "bogus" }, { "--sahara-case", "100000" },
		{ "--sahara-case", "5-2" }, { "--sahara-case", "all,all,all" },
	};
	pid_t pid;

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pid = fork();
		if (pid == 0) {
			execl(emu_path, emu_path, "--socket", sock_path,
			      bad[i][0], bad[i][1], (char *)NULL);
			_exit(127);
		}
		CHECK_EQ(wait_exit(pid), 2);
	}
	unlink(ready_path);
	unlink(counters_path);
	pid = fork();
	if (pid == 0) {
		execl(emu_path, emu_path, "--socket", sock_path, "--ready",
		      ready_path, "--counters", counters_path, "--hang-dbc", "3",
		      "--hang-dbc", "4", "--drop-dbc-rsp", "5:2",
		      "--corrupt-dbc-rsp", "15", "--dbc-mem-mb", "64",
		      (char *)NULL);
		_exit(127);
	}
	CHECK(wait_for_file(ready_path));
	kill(pid, SIGTERM);
	CHECK_EQ(wait_exit(pid), 0);
	CHECK_EQ(counter("dbc_mmio_other"), 0);
}

/* --list-sahara-cases: the table, "N name verdict" a line, case 0 good. */
static void test_list_sahara_cases(void)
{
	char cmd[4200], line[256], name[128], verdict[16];
	unsigned int n = 0, num;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s --list-sahara-cases", emu_path);
	p = popen(cmd, "r");
	CHECK(p);
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		CHECK_EQ(sscanf(line, "%u %127s %15s", &num, name, verdict), 3);
		CHECK_EQ(num, n);
		CHECK(!strcmp(verdict, "fails") || !strcmp(verdict, "goes-on") ||
		      !strcmp(verdict, "dump-abandoned"));
		if (!n)
			CHECK(!strcmp(name, "good") && !strcmp(verdict, "goes-on"));
		n++;
	}
	CHECK_EQ(pclose(p), 0);
	CHECK(n > 100);
}

/* --malice: bad arguments are usage errors; the counters say what it did. */
static void test_malice_option(void)
{
	static const char *const bad[] = {
		"", "x", "1:1001", "1:20:nope", "1:", ":20",
	};
	pid_t pid;

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pid = fork();
		if (pid == 0) {
			execl(emu_path, emu_path, "--socket", sock_path,
			      "--malice", bad[i], (char *)NULL);
			_exit(127);
		}
		CHECK_EQ(wait_exit(pid), 2);
	}
	unlink(ready_path);
	unlink(counters_path);
	pid = fork();
	if (pid == 0) {
		execl(emu_path, emu_path, "--socket", sock_path, "--ready",
		      ready_path, "--counters", counters_path, "--malice",
		      "7:20:mhi", (char *)NULL);
		_exit(127);
	}
	CHECK(wait_for_file(ready_path));
	kill(pid, SIGTERM);
	CHECK_EQ(wait_exit(pid), 0);
	CHECK_EQ(counter("malice_enabled"), 1);
	CHECK_EQ(counter("malice_seed"), 7);
	CHECK_EQ(counter("malice_permille"), 20);
	CHECK_EQ(counter("malice_armed"), 0);	/* no host, no boot */
	CHECK_EQ(counter("malice_rsp_reqid"), 0);
	CHECK_EQ(counter("malice_mhi_syserr"), 0);
	CHECK_EQ(counter("malice_storm_msis"), 0);
	/* Without it: off, and said so. */
	unlink(ready_path);
	pid = start_emu();
	CHECK(wait_for_file(ready_path));
	kill(pid, SIGTERM);
	CHECK_EQ(wait_exit(pid), 0);
	CHECK_EQ(counter("malice_enabled"), 0);
	CHECK_EQ(counter("malice_nnc_crc"), 0);
}

/*
 * --vfio-user: the same life cycle over vfio-user (a VERSION and a config
 * read of the ids), an unmapped DMA never happens here so dma_refused
 * stays 0; and the two transports exclude each other.
 */
static void test_vfio_user(void)
{
	static const char json[] = "{\"capabilities\":{\"max_msg_fds\":16}}";
	struct {
		struct vfu_hdr h;
		struct vfu_version v;
		char json[sizeof(json)];
	} ver = {
		.h = { .id = 1, .cmd = VFU_VERSION, .size = sizeof(ver) },
	};
	struct {
		struct vfu_hdr h;
		struct vfu_region_access a;
	} rd = {
		.h = { .id = 2, .cmd = VFU_REGION_READ, .size = sizeof(rd) },
		.a = { 0, 7, 4 },
	};
	uint8_t reply[64];
	uint32_t ids, size;
	pid_t pid;
	int fd;

	memcpy(ver.json, json, sizeof(json));
	unlink(ready_path);
	unlink(counters_path);
	pid = fork();
	if (pid == 0) {
		execl(emu_path, emu_path, "--vfio-user", sock_path, "--ready",
		      ready_path, "--counters", counters_path, "--no-msix",
		      "--card", "aic080", (char *)NULL);
		_exit(127);
	}
	CHECK(wait_for_file(ready_path));
	fd = connect_emu();
	CHECK_EQ(write(fd, &ver, sizeof(ver)), sizeof(ver));
	CHECK_EQ(recv(fd, reply, 16, MSG_WAITALL), 16);
	CHECK_EQ(((struct vfu_hdr *)reply)->flags, VFU_F_TYPE_REPLY);
	size = ((struct vfu_hdr *)reply)->size;
	CHECK(size <= sizeof(ver) && size > 16);
	CHECK_EQ(recv(fd, reply, size - 16, MSG_WAITALL), size - 16);
	CHECK_EQ(write(fd, &rd, sizeof(rd)), sizeof(rd));
	CHECK_EQ(recv(fd, reply, 36, MSG_WAITALL), 36);
	memcpy(&ids, reply + 32, 4);
	CHECK_EQ(ids, 0xa08017cb);
	close(fd);
	CHECK_EQ(wait_exit(pid), 0);
	CHECK_EQ(counter("vfu_messages"), 2);
	CHECK_EQ(counter("vfu_protocol_errors"), 0);
	CHECK_EQ(counter("dma_refused"), 0);
	CHECK_EQ(counter("cfg_reads"), 1);
	CHECK_EQ(counter("vu_messages"), -1);

	pid = fork();
	if (pid == 0) {
		execl(emu_path, emu_path, "--vfio-user", sock_path, "--socket",
		      sock_path, (char *)NULL);
		_exit(127);
	}
	CHECK_EQ(wait_exit(pid), 2);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s PATH-TO-qaic-emu\n", argv[0]);
		return 2;
	}
	emu_path = argv[1];
	if (!mkdtemp(dir))
		return 1;
	snprintf(sock_path, sizeof(sock_path), "%s/emu.sock", dir);
	snprintf(ready_path, sizeof(ready_path), "%s/ready", dir);
	snprintf(counters_path, sizeof(counters_path), "%s/counters", dir);

	RUN(test_serve_until_disconnect);
	RUN(test_sigterm);
	RUN(test_garbage_frontend);
	RUN(test_bad_usage);
	RUN(test_dbc_options);
	RUN(test_malice_option);
	RUN(test_list_sahara_cases);
	RUN(test_vfio_user);

	unlink(ready_path);
	unlink(counters_path);
	rmdir(dir);
	return emu_test_exit();
}
