/*
 * http_cache.c - answers computed from the store, kept until the next
 * interval is written (the generation moves on), so a dashboard polling
 * every second costs one query per interval; one request refreshes a
 * stale answer while the others are given the old one.
 */
#include "daemon/serve/http_server_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copy of a cached answer for key, or false.  When stale and nobody is
 * refreshing it, the caller is elected to refresh (*refresh = true). */
bool http_cache_get(struct http_server *s, const char *key, struct api_response *out,
		    bool *refresh)
{
	uint64_t gen = atomic_load(&s->generation);
	struct cached *c = NULL;
	bool hit = false;
	size_t i;

	*refresh = true;
	pthread_mutex_lock(&s->lock);
	for (i = 0; i < CACHE_ENTRIES; i++)
		if (s->cache[i].resp.body != NULL && strcmp(s->cache[i].key, key) == 0) {
			c = &s->cache[i];
			break;
		}
	if (c != NULL && (c->generation == gen || c->computing)) {
		out->body = malloc(c->resp.len ? c->resp.len : 1);
		if (out->body != NULL) {
			memcpy(out->body, c->resp.body, c->resp.len);
			out->len = c->resp.len;
			out->status = c->resp.status;
			out->content_type = c->resp.content_type;
			c->used = ++s->clock;
			hit = true;
			*refresh = false;
		}
	} else if (c != NULL) {
		c->computing = true;
	}
	pthread_mutex_unlock(&s->lock);
	return hit;
}

void http_cache_put(struct http_server *s, const char *key, uint64_t gen,
		    const struct api_response *r)
{
	struct cached *c = NULL;
	char *copy;
	size_t i;

	copy = malloc(r->len ? r->len : 1);
	if (copy == NULL) {
		http_cache_release(s, key);   /* else it would be served stale for ever */
		return;
	}
	memcpy(copy, r->body, r->len);
	pthread_mutex_lock(&s->lock);
	for (i = 0; i < CACHE_ENTRIES && c == NULL; i++)
		if (s->cache[i].resp.body != NULL && strcmp(s->cache[i].key, key) == 0)
			c = &s->cache[i];
	for (i = 0; i < CACHE_ENTRIES && c == NULL; i++)
		if (s->cache[i].resp.body == NULL)
			c = &s->cache[i];
	if (c == NULL) {
		c = &s->cache[0];
		for (i = 1; i < CACHE_ENTRIES; i++)
			if (s->cache[i].used < c->used)
				c = &s->cache[i];
	}
	free(c->resp.body);
	snprintf(c->key, sizeof(c->key), "%s", key);
	c->resp = *r;
	c->resp.body = copy;
	c->generation = gen;
	c->computing = false;
	c->used = ++s->clock;
	pthread_mutex_unlock(&s->lock);
}

void http_cache_release(struct http_server *s, const char *key)
{
	size_t i;

	pthread_mutex_lock(&s->lock);
	for (i = 0; i < CACHE_ENTRIES; i++)
		if (s->cache[i].resp.body != NULL && strcmp(s->cache[i].key, key) == 0)
			s->cache[i].computing = false;
	pthread_mutex_unlock(&s->lock);
}
