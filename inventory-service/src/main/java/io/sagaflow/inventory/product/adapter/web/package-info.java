/** The product REST API under {@code /api/products}: requests, responses and their problem codes. */
package io.sagaflow.inventory.product.adapter.web;
