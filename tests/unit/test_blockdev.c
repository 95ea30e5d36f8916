/*
 * test_blockdev.c — unit test of the stack walk of target/blockdev.c on a
 * fake sysfs tree and fake mount and swap tables, for the stacks this
 * machine may not be able to build (device-mapper, md): a partition mounted
 * under a device-mapper target's slave, a sibling holder of a slave, a
 * partition whose whole disk is held, a slave cycle, and a free stack.
 * Loop devices, their backing files and swap are covered on real devices by
 * tests/e2e/safety_stacked.sh.
 * Exit status: 0 pass, 1 fail.
 */
#include "target/blockdev.h"

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "check.h"

/* A block device of the fake tree: its name, number, and where it sits. */
struct fake_dev {
	const char *name;
	unsigned maj, min;
	const char *parent;		/* whole disk of a partition, else NULL */
	const char *slaves[2];
	const char *holders[2];
};

static const struct fake_dev tree[] = {
	{ "loop0", 7, 0, NULL, { NULL }, { "dm-0", "dm-1" } },
	{ "loop0p1", 259, 0, "loop0", { NULL }, { NULL } },
	{ "dm-0", 253, 0, NULL, { "loop0" }, { NULL } },
	{ "dm-1", 253, 1, NULL, { "loop0" }, { NULL } },
	{ "loop1", 7, 1, NULL, { NULL }, { "dm-2" } },
	{ "dm-2", 253, 2, NULL, { "loop1" }, { NULL } },
	/* a malformed cycle: each made of the other */
	{ "dm-3", 253, 3, NULL, { "dm-4" }, { NULL } },
	{ "dm-4", 253, 4, NULL, { "dm-3" }, { NULL } },
};

__attribute__((format(printf, 2, 3)))
static void write_file(const char *content, const char *fmt, ...)
{
	char path[512];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "we");
	if (f) {
		fputs(content, f);
		fclose(f);
	}
}

/* devices/[PARENT/]NAME relative to the root */
static void dev_dir(const struct fake_dev *d, char *buf, size_t len)
{
	if (d->parent)
		snprintf(buf, len, "devices/%s/%s", d->parent, d->name);
	else
		snprintf(buf, len, "devices/%s", d->name);
}

static void make_dev(const char *root, const struct fake_dev *d)
{
	char dir[128], path[256], link[512], num[32];

	dev_dir(d, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", root, dir);
	mkdir(path, 0755);
	snprintf(num, sizeof(num), "%u:%u\n", d->maj, d->min);
	write_file(num, "%s/dev", path);
	if (d->parent)
		write_file("1\n", "%s/partition", path);
	snprintf(link, sizeof(link), "%s/holders", path);
	mkdir(link, 0755);
	for (int i = 0; i < 2 && d->holders[i]; i++)
		write_file("", "%s/holders/%s", path, d->holders[i]);
	snprintf(link, sizeof(link), "%s/slaves", path);
	mkdir(link, 0755);
	for (int i = 0; i < 2 && d->slaves[i]; i++)
		write_file("", "%s/slaves/%s", path, d->slaves[i]);
	snprintf(link, sizeof(link), "../../%s", dir);
	snprintf(path, sizeof(path), "%s/class/block/%s", root, d->name);
	symlink(link, path);
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u", root, d->maj, d->min);
	symlink(link, path);
}

static bool make_tree(const char *root)
{
	static const char *const dirs[] = { "devices", "class", "class/block", "dev",
					    "dev/block", "block" };
	char path[512];

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		if (mkdir(path, 0755) != 0)
			return false;
	}
	for (size_t i = 0; i < sizeof(tree) / sizeof(tree[0]); i++)
		make_dev(root, &tree[i]);
	write_file("Filename\tType\tSize\tUsed\tPriority\n", "%s/swaps", root);
	return true;
}

/* The mount table: one ext4 on `mounted` ("MAJ:MIN"), or none. */
static void set_mounts(const char *root, const char *mounted)
{
	char line[256] = "";

	if (mounted)
		snprintf(line, sizeof(line),
			 "36 25 %s / /fake-mnt rw,relatime shared:1 - ext4 /dev/fake rw\n", mounted);
	write_file(line, "%s/mountinfo", root);
}

/* Check `dev`: expect `code` and, for a refusal, a message holding `needle`. */
static void expect(struct check_state *st, const struct blockdev_sources *src, unsigned maj,
		   unsigned min, int code, const char *needle)
{
	struct errmsg err = { { 0 } };
	int ret = blockdev_check_in_use_from(src, makedev(maj, min), "/dev/target", &err);

	CHECK(st, ret == code, "%u:%u: returned %d, expected %d (%s)", maj, min, ret, code,
	      err.text);
	if (needle)
		CHECK(st, strstr(err.text, needle) != NULL, "%u:%u: \"%s\" should say \"%s\"",
		      maj, min, err.text, needle);
	printf("%u:%u: %d %s\n", maj, min, ret, err.text);
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int main(void)
{
	char root[] = "/tmp/test_blockdev.XXXXXX", sysfs[64], mountinfo[64], swaps[64];
	struct blockdev_sources src = { sysfs, mountinfo, swaps };
	struct check_state st = { 0, 0 };

	if (!mkdtemp(root) || !make_tree(root)) {
		printf("cannot build the fake sysfs tree in /tmp\n");
		return 1;
	}
	snprintf(sysfs, sizeof(sysfs), "%s", root);
	snprintf(mountinfo, sizeof(mountinfo), "%s/mountinfo", root);
	snprintf(swaps, sizeof(swaps), "%s/swaps", root);

	set_mounts(root, "259:0");	/* loop0p1 mounted */
	expect(&st, &src, 253, 0, -EBUSY, "loop0p1 (a partition in the stack) is mounted at /fake-mnt");
	expect(&st, &src, 7, 0, -EBUSY, "its partition loop0p1 is mounted at /fake-mnt");
	expect(&st, &src, 253, 2, 0, NULL);

	set_mounts(root, NULL);
	expect(&st, &src, 253, 0, -EBUSY, "loop0 below it is held by dm-1");
	expect(&st, &src, 7, 0, -EBUSY, "held by dm-0");
	expect(&st, &src, 259, 0, -EBUSY, "loop0 (its whole disk) is held by dm-0");
	expect(&st, &src, 253, 2, 0, NULL);
	expect(&st, &src, 7, 1, -EBUSY, "held by dm-2");
	/* the cycle ends: each device is walked once */
	expect(&st, &src, 253, 3, 0, NULL);

	set_mounts(root, "253:2");	/* the top of a stack mounted: its slave is held */
	expect(&st, &src, 7, 1, -EBUSY, "held by dm-2");
	expect(&st, &src, 253, 2, -EBUSY, "mounted at /fake-mnt");

	nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	return check_exit(&st, "blockdev");
}
