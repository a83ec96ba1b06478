/* Which pip wheel installed a file: looks in the site-packages directories above the file for
 * a *.dist-info whose RECORD lists it, and reads Name and Version from its METADATA. Only
 * NVIDIA and PyTorch wheels are considered (nvidia*, torch*). Also understands a toolkit laid
 * out from wheels with a dist-info/ folder beside lib64/ (matched by file name). */
#include "doctor/probe.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int interesting(const char *name)
{
    size_t n = strlen(name);
    return n > 10 && strcmp(name + n - 10, ".dist-info") == 0 &&
           (strncasecmp(name, "nvidia", 6) == 0 || strncasecmp(name, "torch", 5) == 0);
}

/* 1 if RECORD at rec lists rel (exact, when by_base is 0) or a path ending in /base. */
static int record_lists(const char *rec, const char *rel, const char *base, int by_base)
{
    FILE *f = fopen(rec, "r");
    if (!f)
        return 0;
    char line[PATH_MAX + 256];
    size_t rl = strlen(rel), bl = strlen(base);
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        char *comma = strchr(line, ',');
        if (!comma)
            continue;
        size_t n = (size_t)(comma - line);
        if (!by_base)
            found = n == rl && memcmp(line, rel, rl) == 0;
        else
            found = n > bl && line[n - bl - 1] == '/' && memcmp(comma - bl, base, bl) == 0;
    }
    fclose(f);
    return found;
}

static void read_metadata(const char *distinfo, char *out, size_t len)
{
    char path[PATH_MAX + 16], line[512], name[160] = "", version[64] = "";
    snprintf(path, sizeof path, "%s/METADATA", distinfo);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f) && (!name[0] || !version[0])) {
        if (line[0] == '\n' || line[0] == '\r')
            break; /* end of headers */
        line[strcspn(line, "\r\n")] = 0;
        if (strncmp(line, "Name: ", 6) == 0)
            snprintf(name, sizeof name, "%.150s", line + 6);
        else if (strncmp(line, "Version: ", 9) == 0)
            snprintf(version, sizeof version, "%.60s", line + 9);
    }
    fclose(f);
    if (name[0])
        snprintf(out, len, "%s %s", name, version[0] ? version : "?");
}

/* Look in container (a directory of *.dist-info) for the owner of file; 1 if found. */
static int search_container(const char *container, const char *rel, const char *base,
                            int by_base, char *out, size_t len)
{
    DIR *d = opendir(container);
    if (!d)
        return 0;
    struct dirent *de;
    int found = 0;
    while (!found && (de = readdir(d)) != NULL) {
        if (!interesting(de->d_name))
            continue;
        char di[PATH_MAX], rec[PATH_MAX + 16];
        if (snprintf(di, sizeof di, "%s/%s", container, de->d_name) >= (int)sizeof di)
            continue;
        snprintf(rec, sizeof rec, "%s/RECORD", di);
        if (record_lists(rec, rel, base, by_base)) {
            read_metadata(di, out, len);
            found = out[0] != 0;
        }
    }
    closedir(d);
    return found;
}

void cc_doc_wheel_owner(const char *path, char *out, size_t len)
{
    out[0] = 0;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (int up = 0; up < 5; up++) {
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            return;
        *slash = 0; /* dir is now an ancestor of path */
        const char *rel = path + strlen(dir) + 1;
        if (search_container(dir, rel, base, 0, out, len))
            return;
        char alt[PATH_MAX + 16];
        snprintf(alt, sizeof alt, "%s/dist-info", dir);
        if (search_container(alt, rel, base, 1, out, len))
            return;
    }
}
