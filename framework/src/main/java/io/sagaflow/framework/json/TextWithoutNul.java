package io.sagaflow.framework.json;

import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.jdk.StringDeserializer;
import tools.jackson.databind.module.SimpleModule;

/**
 * Refuses JSON text that holds the character U+0000, wherever it is read into a {@code String}. PostgreSQL stores no
 * such character, in {@code text} or in {@code jsonb}, so a request that carried one in any field failed at its first
 * statement, a 500 (found by fuzzing the services' OpenAPI documents with Schemathesis). Now Jackson refuses the value
 * as it refuses one of the wrong type, and the caller gets a 400 naming the field.
 */
public final class TextWithoutNul extends SimpleModule {

    /** Why a value is refused: the message of the exception Jackson throws for it, and what a problem may say. */
    public static final String REFUSAL = "text may not hold the character U+0000";

    public TextWithoutNul() {
        super("sagaflow-text-without-nul");
        addDeserializer(String.class, new Strings());
    }

    private static final class Strings extends StringDeserializer {

        @Override
        public String deserialize(JsonParser parser, DeserializationContext context) {
            String value = super.deserialize(parser, context);
            if (value != null && value.indexOf(0) >= 0) {
                return (String) context.handleWeirdStringValue(String.class, value, REFUSAL);
            }
            return value;
        }
    }
}
