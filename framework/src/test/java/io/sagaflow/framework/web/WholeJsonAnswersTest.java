package io.sagaflow.framework.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.core.ResolvableType;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

class WholeJsonAnswersTest {

    private final JsonMapper mapper = JsonMapper.builder().build();
    private final WholeJsonAnswers.Converter converter = new WholeJsonAnswers.Converter(mapper);

    record Line(String name, int quantity) {}

    @Test
    void anAnswerThatFitsTheBufferGoesOutWithItsLength() throws IOException {
        Line line = new Line("widget", 3);
        MockHttpServletResponse servlet = new MockHttpServletResponse();

        write(line, servlet);

        byte[] expected = mapper.writeValueAsBytes(line);
        assertThat(servlet.getContentAsByteArray()).isEqualTo(expected);
        assertThat(servlet.getHeader("Content-Length")).isEqualTo(String.valueOf(expected.length));
    }

    @Test
    void anAnswerOfExactlyTheBufferIsHeld_oneByteMoreIsStreamedWhole() throws IOException {
        // {"name":"nnn…","quantity":1}: 24 bytes around the name.
        Line fits = new Line("n".repeat(WholeJsonAnswers.HELD_AT_MOST - 24), 1);
        Line over = new Line("n".repeat(WholeJsonAnswers.HELD_AT_MOST - 23), 1);
        assertThat(mapper.writeValueAsBytes(fits)).hasSize(WholeJsonAnswers.HELD_AT_MOST);

        MockHttpServletResponse held = new MockHttpServletResponse();
        write(fits, held);
        assertThat(held.getHeader("Content-Length")).isEqualTo(String.valueOf(WholeJsonAnswers.HELD_AT_MOST));

        MockHttpServletResponse streamed = new MockHttpServletResponse();
        write(over, streamed);
        assertThat(streamed.getHeader("Content-Length"))
                .as("streamed: its length unknown up front")
                .isNull();
        assertThat(streamed.getContentAsByteArray()).isEqualTo(mapper.writeValueAsBytes(over));
    }

    @Test
    void aLargeAnswerWrittenInManyPiecesArrivesWholeAndInOrder() throws IOException {
        List<Line> lines = IntStream.range(0, 2_000)
                .mapToObj(i -> new Line("line " + i, i))
                .toList();
        MockHttpServletResponse servlet = new MockHttpServletResponse();

        write(lines, servlet);

        assertThat(servlet.getContentAsByteArray()).isEqualTo(mapper.writeValueAsBytes(lines));
        assertThat(servlet.getHeader("Content-Length")).isNull();
    }

    @Test
    void onlySpringBootsOwnJsonConverterIsReplaced_keepingItsMapper() {
        JacksonJsonHttpMessageConverter boots = new JacksonJsonHttpMessageConverter(mapper);
        JacksonJsonHttpMessageConverter actuators = new JacksonJsonHttpMessageConverter(mapper) {};
        StringHttpMessageConverter text = new StringHttpMessageConverter();
        HttpMessageConverters.ServerBuilder builder = HttpMessageConverters.forServer()
                .withStringConverter(text)
                .withJsonConverter(boots)
                .addCustomConverter(actuators);

        new WholeJsonAnswers().configureMessageConverters(builder);
        List<HttpMessageConverter<?>> converters = new ArrayList<>();
        builder.build().forEach(converters::add);

        assertThat(converters).contains(text, actuators).doesNotContain(boots);
        assertThat(converters)
                .filteredOn(WholeJsonAnswers.Converter.class::isInstance)
                .singleElement()
                .extracting(converter -> ((WholeJsonAnswers.Converter) converter).getMapper())
                .isSameAs(mapper);
    }

    @Test
    void aMapperRegisteredOnTheConverterLaterReachesTheReplacement_asTheActuatorsDoes() {
        // Spring Boot's actuator registers its own mapper for its answers on the JSON converter, through a
        // configurer of each converter, which Spring runs after the list's: the replacement must be what it gets.
        JsonMapper endpoints = JsonMapper.builder().build();
        HttpMessageConverters.ServerBuilder builder =
                HttpMessageConverters.forServer().withJsonConverter(new JacksonJsonHttpMessageConverter(mapper));
        new WholeJsonAnswers().configureMessageConverters(builder);
        builder.configureMessageConverters(converter -> {
            if (converter instanceof JacksonJsonHttpMessageConverter json) {
                json.registerMappersForType(Line.class, mappers -> mappers.put(MediaType.APPLICATION_JSON, endpoints));
            }
        });

        List<HttpMessageConverter<?>> converters = new ArrayList<>();
        builder.build().forEach(converters::add);

        assertThat(converters)
                .filteredOn(WholeJsonAnswers.Converter.class::isInstance)
                .singleElement()
                .extracting(converter -> ((WholeJsonAnswers.Converter) converter).getMappersForType(Line.class))
                .isEqualTo(Map.of(MediaType.APPLICATION_JSON, endpoints));
    }

    private void write(Object value, MockHttpServletResponse servlet) throws IOException {
        ServletServerHttpResponse response = new ServletServerHttpResponse(servlet);
        converter.write(value, ResolvableType.forInstance(value), MediaType.APPLICATION_JSON, response, null);
        response.flush(); // as Spring MVC does after a converter wrote
    }
}
