/*
 * json_file.h — a whole JSON input file read into a jansson tree, with the
 * rules of util/input_file.h (a regular file, at most INPUT_FILE_MAX): one
 * error text naming the file, and the line for text that is not JSON.
 */
#ifndef IOMODEL_JSON_FILE_H
#define IOMODEL_JSON_FILE_H

#include <jansson.h>

#include "util/errmsg.h"

/*
 * Parse all of `path` into *root (the caller json_decref()s it). 0, or
 * input_file_read()'s -errno, or -EBADMSG for text that is not JSON
 * ("PATH:LINE: what jansson says"); `err` set on failure, *root NULL.
 */
int json_file_load(const char *path, json_t **root, struct errmsg *err);

#endif
