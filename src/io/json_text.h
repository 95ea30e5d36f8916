/*
 * json_text.h — a string from the outside world (a path, a file name) as a
 * JSON string that can always be written: jansson refuses text that is not
 * valid UTF-8 (json_pack then fails and the whole document is lost), so such
 * text goes out escaped as errmsg_escape() spells it ("f\xff.bin").
 */
#ifndef IOMODEL_JSON_TEXT_H
#define IOMODEL_JSON_TEXT_H

#include <jansson.h>

/* A new JSON string holding `text`, escaped when it is not UTF-8; NULL only without memory. */
json_t *json_text(const char *text);

#endif
