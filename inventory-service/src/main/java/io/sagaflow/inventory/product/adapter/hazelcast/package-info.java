/** The product view cache in the service's Hazelcast cluster. */
package io.sagaflow.inventory.product.adapter.hazelcast;
