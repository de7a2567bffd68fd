/** Optional JWT authentication (OAuth2 resource server) with the role {@code ADMIN} for {@code /api/admin/**}. */
package io.sagaflow.gateway.security;
