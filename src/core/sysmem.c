/* How much memory this process can still take: the guard that turns an
   impossible size into AXB_ERR_OUT_OF_MEMORY instead of swapping or the
   OOM killer. */
#include "core/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* MemAvailable of /proc/meminfo in bytes, or -1. */
static int64_t meminfo_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return -1;
  char line[256];
  long long kb = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1) break;
  fclose(f);
  if (kb < 0 || kb > INT64_MAX / 1024) return -1;
  return (int64_t)kb * 1024;
}

/* First integer of a small file, or -1 (also for "max"). */
static int64_t file_int(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  long long v = -1;
  if (fscanf(f, "%lld", &v) != 1) v = -1;
  fclose(f);
  return v < 0 ? -1 : (int64_t)v;
}

/* The value of "KEY N" in a cgroup's memory.stat, or -1. */
static int64_t stat_value(const char *dir, const char *key) {
  char p[1300], line[256];
  snprintf(p, sizeof p, "%s/memory.stat", dir);
  FILE *f = fopen(p, "r");
  if (!f) return -1;
  size_t n = strlen(key);
  long long v = -1;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, key, n) == 0 && line[n] == ' ' &&
        sscanf(line + n, "%lld", &v) == 1)
      break;
  fclose(f);
  return v < 0 ? -1 : (int64_t)v;
}

/* Smallest room under the memory limit of dir and each ancestor up to root:
   the limit less the cgroup's anonymous memory (anon_key in memory.stat;
   page cache is left out, reclaim can free it).  -1 when no limit. */
static int64_t room_under(char *dir, const char *root, const char *limit_name,
                          const char *anon_key) {
  int64_t room = -1;
  size_t root_len = strlen(root);
  for (;;) {
    char p[1300];
    snprintf(p, sizeof p, "%s/%s", dir, limit_name);
    int64_t max = file_int(p);
    if (max >= 0 && max < INT64_MAX / 2) { /* v1 says "none" as ~2^63 */
      int64_t anon = stat_value(dir, anon_key);
      int64_t r = anon < 0 ? max : max > anon ? max - anon : 0;
      if (room < 0 || r < room) room = r;
    }
    char *slash = strrchr(dir, '/');
    if (strlen(dir) <= root_len || !slash || slash < dir + root_len) break;
    *slash = '\0';
  }
  return room;
}

/* Room left under the memory limits of this process's cgroups (a
   container's limit, which MemAvailable does not show): cgroup v2
   memory.max, or v1 memory.limit_in_bytes, of the cgroup and its
   ancestors.  -1 when there is no limit or no cgroup. */
static int64_t cgroup_room(void) {
  FILE *f = fopen("/proc/self/cgroup", "r");
  if (!f) return -1;
  char line[1024], dir[1200];
  int64_t room = -1;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    /* "ID:CONTROLLERS:PATH"; v2 is "0::PATH". */
    char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2) continue;
    *c2 = '\0';
    int64_t r = -1;
    if (strcmp(line, "0:") == 0) {
      snprintf(dir, sizeof dir, "/sys/fs/cgroup%s", c2 + 1);
      r = room_under(dir, "/sys/fs/cgroup", "memory.max", "anon");
    } else {
      /* v1: the hierarchy whose controller list holds "memory". */
      char *ctl = c1 + 1, *save = NULL;
      for (char *t = strtok_r(ctl, ",", &save); t;
           t = strtok_r(NULL, ",", &save))
        if (strcmp(t, "memory") == 0) {
          snprintf(dir, sizeof dir, "/sys/fs/cgroup/memory%s", c2 + 1);
          r = room_under(dir, "/sys/fs/cgroup/memory", "memory.limit_in_bytes",
                         "total_rss");
          break;
        }
    }
    if (r >= 0 && (room < 0 || r < room)) room = r;
  }
  fclose(f);
  return room;
}

int64_t axb__memory_available(void) {
  int64_t avail = meminfo_available();
  if (avail < 0) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    avail = pages <= 0 || page <= 0        ? INT64_MAX / 2
            : pages > INT64_MAX / 2 / page ? INT64_MAX / 2
                                           : (int64_t)pages * (int64_t)page;
  }
  int64_t cg = cgroup_room();
  if (cg >= 0 && cg < avail) avail = cg;
  /* AXB_MEMORY_LIMIT (bytes) lowers the figure, never raises it: tests of
     the memory guards, and users who share a machine. */
  const char *env = getenv("AXB_MEMORY_LIMIT");
  if (env && *env) {
    char *end = NULL;
    errno = 0;
    long long v = strtoll(env, &end, 10);
    if (errno == 0 && end && *end == '\0' && v >= 0 && v < avail)
      avail = (int64_t)v;
  }
  return avail;
}

int axb__memory_short(double need, double *have) {
  if (need < 16.0 * 1048576.0 && !getenv("AXB_MEMORY_LIMIT")) {
    *have = need;
    return 0;
  }
  *have = (double)axb__memory_available();
  return need > *have;
}
