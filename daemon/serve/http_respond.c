/*
 * http_respond.c - an answer queued on its connection, with the headers
 * every answer carries.
 */
#include "daemon/serve/http_server_private.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* body is libmicrohttpd's to free from here on, answered or not; extra:
 * further header fields (NULL, or up to a NULL name). */
static enum MHD_Result respond(struct MHD_Connection *conn, int status, const char *type,
			       char *body, size_t len, bool html,
			       const struct api_header *extra, size_t n_extra)
{
	struct MHD_Response *r;
	enum MHD_Result ret;
	size_t i;

	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (r == NULL) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "Cache-Control", "no-store");
	if (html)
		MHD_add_response_header(r, "Content-Security-Policy",
					"default-src 'self'; img-src 'self' data:");
	if (status == 405)
		MHD_add_response_header(r, "Allow", "GET, HEAD");
	for (i = 0; i < n_extra && extra[i].name != NULL; i++)
		MHD_add_response_header(r, extra[i].name, extra[i].value);
	ret = MHD_queue_response(conn, (unsigned)status, r);
	MHD_destroy_response(r);
	return ret;
}

enum MHD_Result http_respond(struct MHD_Connection *conn, int status, const char *type,
			     char *body, size_t len, bool html)
{
	return respond(conn, status, type, body, len, html, NULL, 0);
}

enum MHD_Result http_respond_api(struct MHD_Connection *conn, struct api_response *resp)
{
	return respond(conn, resp->status, resp->content_type, resp->body, resp->len, false,
		       resp->headers, sizeof(resp->headers) / sizeof(resp->headers[0]));
}

enum MHD_Result http_send_text(struct MHD_Connection *conn, int status, const char *json)
{
	char *b = strdup(json);

	return b == NULL ? MHD_NO :
		http_respond(conn, status, "application/json", b, strlen(b), false);
}

/* 429: this peer's share of the server's work is in use; 503: every
 * place is.  Either is worth asking again in a second. */
enum MHD_Result http_send_busy(struct MHD_Connection *conn, bool peer)
{
	static const char mine[] = "{\"error\": \"busy: your earlier requests are still being "
				   "answered; retry in a second\"}\n";
	static const char all[] = "{\"error\": \"busy: stackd is computing as many answers as "
				  "it allows at once; retry in a second\"}\n";
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(peer ? sizeof(mine) - 1 : sizeof(all) - 1,
					    (void *)(uintptr_t)(peer ? mine : all),
					    MHD_RESPMEM_PERSISTENT);
	if (r == NULL)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "application/json");
	MHD_add_response_header(r, "Retry-After", "1");
	ret = MHD_queue_response(conn, peer ? 429 : 503, r);
	MHD_destroy_response(r);
	return ret;
}
