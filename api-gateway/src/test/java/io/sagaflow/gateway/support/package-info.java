/** Test support: fake services on real HTTP ports and a client, so the gateway is tested end to end. */
package io.sagaflow.gateway.support;
