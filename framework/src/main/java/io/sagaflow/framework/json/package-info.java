/** What every service's JSON mapper gets from the framework: values built by their creators without Jackson's slow path. */
package io.sagaflow.framework.json;
