package io.sagaflow.gateway.support;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reads response bodies for assertions. */
public final class Json {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Json() {}

    public static JsonNode read(String body) {
        return MAPPER.readTree(body);
    }
}
