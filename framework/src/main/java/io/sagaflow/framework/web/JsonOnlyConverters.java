package io.sagaflow.framework.web;

import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Keeps a service's message converters to those its API and actuator use: JSON, text, bytes and resources (ADR 0066).
 *
 * <p>Spring MVC registers a converter for every format whose library is on the class path, and asks each of them, on
 * every request, whether it can read the body and whether it can write the answer. Ours carry {@code jakarta.xml.bind}
 * for the OpenAPI library, so every answer was offered to JAXB, which looks for {@code @XmlRootElement} on the
 * answer's class each time; a YAML or form converter would be asked the same. The services answer JSON only (ADR
 * 0010): a client asking for XML gets a 406, as it did when JAXB refused our records.
 *
 * <p>A converter stays when it can handle JSON or any type: Jackson's (the actuator's included), and the string, byte
 * and resource converters that the Prometheus scrape, the OpenAPI document and Swagger UI answer with.
 */
public final class JsonOnlyConverters implements WebMvcConfigurer {

    @Override
    public void configureMessageConverters(HttpMessageConverters.ServerBuilder builder) {
        builder.configureMessageConvertersList(converters -> converters.removeIf(converter -> !kept(converter)));
    }

    /** Whether a service keeps {@code converter}. */
    private static boolean kept(HttpMessageConverter<?> converter) {
        List<MediaType> types = converter.getSupportedMediaTypes();
        return types.stream()
                .anyMatch(type -> type.isWildcardType() || MediaType.APPLICATION_JSON.isCompatibleWith(type));
    }
}
