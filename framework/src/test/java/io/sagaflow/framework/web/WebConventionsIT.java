package io.sagaflow.framework.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sagaflow.framework.eventstore.EventMetadata;
import io.sagaflow.framework.test.hazelcast.HazelcastTestPropertiesInitializer;
import io.sagaflow.framework.test.postgres.PostgresTestConfiguration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.handler.HandlerExceptionResolverComposite;
import org.springframework.web.servlet.mvc.method.annotation.ExceptionHandlerExceptionResolver;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/** Bad input gets a 4xx problem with a stable code; correlation ids go in and come back out. */
@SpringBootTest(
        classes = WebConventionsIT.SampleWebService.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.application.name=web-sample",
            // A pool small enough for one request to empty, failing fast when it is empty.
            "spring.datasource.hikari.maximum-pool-size=2",
            "spring.datasource.hikari.connection-timeout=250",
            // Two requests in flight at most: the third is refused.
            "sagaflow.web.max-in-flight=2",
            // Socket buffers far smaller than the bodies of one test.
            "sagaflow.web.connection-buffer=1KB",
            // The warm-up (ADR 0078): three requests to itself, each noting the readiness they were served in.
            "sagaflow.web.warm-up.rounds=3",
            "sagaflow.web.warm-up.calls[0].method=GET",
            "sagaflow.web.warm-up.calls[0].path=/warm-up/readiness"
        })
@Import(PostgresTestConfiguration.class)
@ContextConfiguration(initializers = HazelcastTestPropertiesInitializer.class)
class WebConventionsIT {

    @Value("${local.server.port}")
    int port;

    @Autowired
    FilterRegistrationBean<InFlightLimitFilter> inFlightLimit;

    @Autowired
    ConnectionBuffers connectionBuffers;

    @Autowired
    RequestMappingHandlerAdapter handlerAdapter;

    @Autowired
    HandlerExceptionResolverComposite exceptionResolvers;

    private final HttpClient http = HttpClient.newHttpClient();

    @Autowired
    ApplicationAvailability availability;

    @Test
    void theWarmUpsRequestsAreServedBeforeTheReplicaSaysItIsReady() {
        assertThat(SampleWebService.WarmUpSeen.readiness)
                .as("each of the three rounds, answered while the replica still refused traffic")
                .containsExactly(
                        ReadinessState.REFUSING_TRAFFIC,
                        ReadinessState.REFUSING_TRAFFIC,
                        ReadinessState.REFUSING_TRAFFIC);
        assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
    }

    @Test
    void anUnknownResourceIsA404ProblemWithACode() throws Exception {
        HttpResponse<String> response = get("/things/" + UUID.randomUUID());
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"code\":\"THING_NOT_FOUND\"").contains("\"status\":404");
    }

    @Test
    void theServerKeepsOnlyConvertersForJsonOrAnyType() throws Exception {
        List<HttpMessageConverter<?>> converters = handlerAdapter.getMessageConverters();
        // Which types each converter names, not canWrite: JAXB's and the form converter refuse an Object anyway.
        List<MediaType> named = converters.stream()
                .flatMap(converter -> converter.getSupportedMediaTypes().stream())
                .toList();
        assertThat(named)
                .as("no XML or form converter, though jakarta.xml.bind is on the class path")
                .noneMatch(type -> type.equalsTypeAndSubtype(MediaType.APPLICATION_XML)
                        || type.equalsTypeAndSubtype(MediaType.TEXT_XML)
                        || type.equalsTypeAndSubtype(MediaType.APPLICATION_FORM_URLENCODED));
        assertThat(converters)
                .anyMatch(converter -> converter.canWrite(Object.class, MediaType.APPLICATION_JSON))
                .anyMatch(converter -> converter.canWrite(String.class, MediaType.TEXT_PLAIN));

        HttpResponse<String> xml = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/validated?limit=5"))
                        .header("Accept", "application/xml")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(xml.statusCode()).isEqualTo(406);
        assertThat(get("/validated?limit=5").statusCode()).isEqualTo(200);
    }

    @Test
    void eachMethodAndClassOfAnswerKeepsTheHandlerSpringWouldChoose() throws Exception {
        assertThat(handlerAdapter.getReturnValueHandlers())
                .singleElement()
                .isInstanceOf(ChosenReturnValueHandlers.class);
        assertThat(exceptionResolvers.getExceptionResolvers())
                .filteredOn(ExceptionHandlerExceptionResolver.class::isInstance)
                .singleElement()
                .satisfies(resolver -> assertThat(((ExceptionHandlerExceptionResolver) resolver)
                                .getReturnValueHandlers()
                                .getHandlers())
                        .singleElement()
                        .isInstanceOf(ChosenReturnValueHandlers.class));
        for (int round = 0; round < 2; round++) {
            HttpResponse<String> entity = get("/things/answered-as?as=entity");
            assertThat(entity.statusCode()).isEqualTo(201);
            assertThat(entity.headers().firstValue("Location")).hasValue("/things/1");
            assertThat(entity.body()).isEqualTo("{\"name\":\"e\",\"quantity\":1}");
            HttpResponse<String> future = get("/things/answered-as?as=future");
            assertThat(future.statusCode()).isEqualTo(200);
            assertThat(future.body()).isEqualTo("{\"name\":\"f\",\"quantity\":2}");
            HttpResponse<String> plain = get("/things/answered-as?as=plain");
            assertThat(plain.statusCode()).isEqualTo(200);
            assertThat(plain.body()).isEqualTo("{\"name\":\"plain\",\"quantity\":3}");
            HttpResponse<String> problem = get("/things/" + UUID.randomUUID());
            assertThat(problem.statusCode()).isEqualTo(404);
            assertThat(problem.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        }
    }

    @Test
    void anUnknownPathIsA404ProblemToo() throws Exception {
        HttpResponse<String> response = get("/nowhere");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("\"code\":\"NOT_FOUND\"");
    }

    @Test
    void bodiesManyTimesTheConnectionsBuffersTravelWhole() throws Exception {
        assertThat(connectionBuffers.size()).isEqualTo(DataSize.ofKilobytes(1));
        String name = "n".repeat(40_000);
        for (int i = 1; i <= 3; i++) { // the same keep-alive connection, reused
            HttpResponse<String> response = post("/things/echo", "{\"name\":\"" + name + "\",\"quantity\":" + i + "}");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo(name.repeat(2) + i);
        }
    }

    @Test
    void jsonAnswersCarryTheirLength_onlyOnesLargerThanTomcatsBufferAreChunked() throws Exception {
        HttpResponse<String> created = post("/things", "{\"name\":\"widget\",\"quantity\":3}");
        HttpResponse<String> problem = get("/things/" + UUID.randomUUID());
        for (HttpResponse<String> whole : List.of(created, problem)) {
            assertThat(whole.headers().firstValue("Transfer-Encoding")).isEmpty();
            assertThat(whole.headers().firstValueAsLong("Content-Length"))
                    .hasValue(whole.body().getBytes(StandardCharsets.UTF_8).length);
        }

        HttpResponse<String> many = get("/things/many?count=1000");
        assertThat(many.statusCode()).isEqualTo(200);
        assertThat(many.headers().firstValue("Transfer-Encoding")).hasValue("chunked");
        assertThat(many.body())
                .startsWith("[{\"name\":\"thing 0\"")
                .endsWith("{\"name\":\"thing 999\",\"quantity\":1000}]");
    }

    @Test
    void malformedJsonIsA400() throws Exception {
        HttpResponse<String> response = post("/things", "{not json");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"code\":\"MALFORMED_REQUEST\"");
    }

    /** Found by fuzzing with Schemathesis: PostgreSQL stores no U+0000, and a field that held one was a 500. */
    @Test
    void textHoldingTheCharacterU0000IsA400NamingTheField() throws Exception {
        HttpResponse<String> response = post("/things", "{\"name\":\"a\\u0000b\",\"quantity\":1}");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .contains("\"code\":\"MALFORMED_REQUEST\"")
                .contains("'name' has a value of the wrong kind (text may not hold the character U+0000)");
        HttpResponse<String> wrongType = post("/things", "{\"name\":\"a\",\"quantity\":\"many\"}");
        assertThat(wrongType.statusCode()).isEqualTo(400);
        assertThat(wrongType.body()).contains("'quantity' has a value of the wrong kind\"");
    }

    @Test
    void invalidFieldsAreA400ListingEachField() throws Exception {
        HttpResponse<String> response = post("/things", "{\"name\":\"\",\"quantity\":-1}");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .contains("\"code\":\"VALIDATION_FAILED\"")
                .contains("\"field\":\"name\"")
                .contains("\"field\":\"quantity\"");
    }

    @Test
    void aBadPathParameterIsA400NotA500() throws Exception {
        HttpResponse<String> response = get("/things/not-a-uuid");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"code\":\"INVALID_PARAMETER\"");
    }

    /** Tomcat refuses a URI holding an encoded NUL before Spring sees it: a problem still, not Tomcat's HTML page. */
    @Test
    void aUriTomcatRefusesIsA400Problem() throws Exception {
        HttpResponse<String> response = get("/things/%00");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(response.body())
                .isEqualTo("{\"type\":\"urn:sagaflow:problem:BAD_REQUEST\",\"title\":\"Bad Request\",\"status\":400,"
                        + "\"code\":\"BAD_REQUEST\"}");
    }

    /** Found by fuzzing the services' OpenAPI documents with Schemathesis: Tomcat refuses such a query string. */
    @Test
    void aQueryStringTomcatCannotParseIsA400NotA500() throws Exception {
        for (String query : List.of("limit=5&=0", "limit=5&%F0%94%98%B1=%F0")) {
            HttpResponse<String> response = get("/validated?" + query);
            assertThat(response.statusCode()).as(query).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(response.body()).contains("\"code\":\"INVALID_PARAMETER\"");
        }
    }

    /**
     * The API speaks JSON only (ADR 0066): a multipart content type, with a JSON body or none, is never parsed as
     * parts. A body is refused with 415; a read is served as if it had not been named.
     */
    @Test
    void aMultipartContentTypeIsA415ForABody_andIgnoredOnARead() throws Exception {
        HttpResponse<String> post = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/things"))
                        .header("Content-Type", "multipart/form-data")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"a\",\"quantity\":1}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(415);
        assertThat(post.body()).contains("\"code\":\"UNSUPPORTED_MEDIA_TYPE\"");
        HttpResponse<String> read = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/validated?limit=5"))
                        .header("Content-Type", "multipart/form-data")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(read.statusCode()).isEqualTo(200);
    }

    @Test
    void aConstraintCheckedByAValidatedBeanIsA400NotA500() throws Exception {
        HttpResponse<String> response = get("/validated?limit=0");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"code\":\"VALIDATION_FAILED\"").contains("\"field\":\"limit\"");
        assertThat(get("/validated?limit=5").statusCode()).isEqualTo(200);
    }

    @Test
    void aBusinessRuleIsA422AndTheCorrelationIdRoundTrips() throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/things"))
                        .header("Content-Type", "application/json")
                        .header(CorrelationFilter.HEADER, "client-chosen-42")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"too-many\",\"quantity\":1000}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(422);
        assertThat(response.body()).contains("\"code\":\"QUANTITY_TOO_LARGE\"");
        assertThat(response.headers().firstValue(CorrelationFilter.HEADER)).hasValue("client-chosen-42");

        HttpResponse<String> accepted = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/things"))
                        .header("Content-Type", "application/json")
                        .header(CorrelationFilter.HEADER, "client-chosen-43")
                        .header("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"fine\",\"quantity\":1}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(accepted.statusCode()).isEqualTo(200);
        assertThat(accepted.body()).contains("client-chosen-43").contains("0af7651916cd43dd8448eb211c80319c");
    }

    @Test
    void aDatabaseWithNoFreeConnectionIsA503WithRetryAfter_notA500() throws Exception {
        HttpResponse<String> response = post("/things/while-the-pool-is-empty", "{\"name\":\"x\",\"quantity\":1}");
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"code\":\"SERVICE_BUSY\"").contains("\"status\":503");

        assertThat(get("/transactions/one").statusCode())
                .as("a transaction gets a connection again once they are back in the pool")
                .isEqualTo(200);
    }

    @Test
    void aConnectionTheDatabaseEndsInARequestIsA503WithRetryAfter_notA500() throws Exception {
        HttpResponse<String> response =
                post("/things/while-the-database-ends-the-connection", "{\"name\":\"x\",\"quantity\":1}");
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body())
                .contains("\"code\":\"DATABASE_UNAVAILABLE\"")
                .contains("\"status\":503");

        assertThat(get("/transactions/one").statusCode())
                .as("the pool replaces the connection the database ended")
                .isEqualTo(200);
    }

    @Test
    void aServiceSheddingLoadAnswers503WithRetryAfter() throws Exception {
        HttpResponse<String> response = post("/things/while-shedding", "{\"name\":\"x\",\"quantity\":1}");
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"code\":\"TOO_MUCH_WORK\"").contains("\"status\":503");
    }

    @Test
    void pastTheInFlightLimitARequestIsA503AtOnce_andActuatorIsStillServed() throws Exception {
        SampleWebService.Things.holding = new CountDownLatch(1);
        SampleWebService.Things.held = new CountDownLatch(2);
        List<CompletableFuture<HttpResponse<String>>> holders = List.of(
                CompletableFuture.supplyAsync(() -> getQuietly("/things/held")),
                CompletableFuture.supplyAsync(() -> getQuietly("/things/held")));
        try {
            assertThat(SampleWebService.Things.held.await(10, TimeUnit.SECONDS)).isTrue();
            HttpResponse<String> refused = get("/transactions/one");
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(refused.body()).contains("\"code\":\"IN_FLIGHT_LIMIT\"").contains("\"status\":503");
            assertThat(get("/actuator/health").statusCode()).as("never limited").isNotEqualTo(503);
        } finally {
            SampleWebService.Things.holding.countDown();
        }
        for (CompletableFuture<HttpResponse<String>> holder : holders) {
            assertThat(holder.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        assertThat(get("/transactions/one").statusCode()).isEqualTo(200);
    }

    @Test
    void parkedRequestsThatGaveTheirPermitBackDoNotCountAsInFlight() throws Exception {
        SampleWebService.Things.holding = new CountDownLatch(1);
        SampleWebService.Things.held = new CountDownLatch(3);
        // One after the other: sent together, all three could be admitted before the first gave its permit back, and
        // the third would rightly get 503.
        List<CompletableFuture<HttpResponse<String>>> parked = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            long parkedBefore = 3 - SampleWebService.Things.held.getCount();
            parked.add(CompletableFuture.supplyAsync(() -> getQuietly("/things/parked")));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> 3 - SampleWebService.Things.held.getCount() > parkedBefore);
        }
        try {
            assertThat(SampleWebService.Things.held.await(10, TimeUnit.SECONDS))
                    .as("three parked at once under a limit of two")
                    .isTrue();
            assertThat(get("/transactions/one").statusCode()).isEqualTo(200);
        } finally {
            SampleWebService.Things.holding.countDown();
        }
        for (CompletableFuture<HttpResponse<String>> request : parked) {
            assertThat(request.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        assertThat(inFlightLimit.getFilter().inFlight())
                .as("a permit given back twice is given back once")
                .isZero();
    }

    private HttpResponse<String> getQuietly(String path) {
        try {
            return get(path);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @SpringBootApplication
    static class SampleWebService {

        record NewThing(@NotBlank String name, @Positive int quantity) {}

        /** Validated by a method-validation proxy, which throws ConstraintViolationException, not by Spring MVC. */
        @RestController
        @Validated
        static class ValidatedThings {

            @GetMapping("/validated")
            int limited(@RequestParam @Min(1) @Max(10) int limit) {
                return limit;
            }
        }

        /** Notes the readiness state each warm-up request finds. */
        @RestController
        static class WarmUpSeen {

            static final List<ReadinessState> readiness = new CopyOnWriteArrayList<>();

            private final ApplicationAvailability availability;

            WarmUpSeen(ApplicationAvailability availability) {
                this.availability = availability;
            }

            @GetMapping("/warm-up/readiness")
            String readiness() {
                readiness.add(availability.getReadinessState());
                return "noted";
            }
        }

        @RestController
        static class Things {

            private final DataSource dataSource;
            private final TransactionTemplate transactions;

            Things(DataSource dataSource, PlatformTransactionManager transactionManager) {
                this.dataSource = dataSource;
                this.transactions = new TransactionTemplate(transactionManager);
            }

            @GetMapping("/things/{id}")
            String get(@PathVariable UUID id) {
                throw ApiException.notFound("THING_NOT_FOUND", "Thing", id);
            }

            /** Takes every pooled connection, then asks for a transaction, as a request does under overload. */
            @PostMapping("/things/while-the-pool-is-empty")
            String createWhileThePoolIsEmpty(@Valid @RequestBody NewThing thing) throws SQLException {
                try (Connection first = dataSource.getConnection();
                        Connection second = dataSource.getConnection()) {
                    return transactions.execute(status -> thing.name());
                }
            }

            /**
             * Has the database end the transaction's connection, as a restart or an administrator does: the statement
             * fails, and so does the rollback.
             */
            @PostMapping("/things/while-the-database-ends-the-connection")
            String createWhileTheDatabaseEndsTheConnection(@Valid @RequestBody NewThing thing) {
                return transactions.execute(status -> new JdbcTemplate(dataSource)
                        .queryForObject("select pg_terminate_backend(pg_backend_pid())::text", String.class));
            }

            @PostMapping("/things/while-shedding")
            String createWhileShedding(@Valid @RequestBody NewThing thing) {
                throw ApiException.unavailable("TOO_MUCH_WORK", "Not now");
            }

            static volatile CountDownLatch holding = new CountDownLatch(0);
            static volatile CountDownLatch held = new CountDownLatch(0);

            /** Stays in flight until the test lets it go. */
            @GetMapping("/things/held")
            String held() throws InterruptedException {
                held.countDown();
                holding.await(10, TimeUnit.SECONDS);
                return "released";
            }

            /** Parks as a long poll does, having given its in-flight permit back. */
            @GetMapping("/things/parked")
            String parked(jakarta.servlet.http.HttpServletRequest request) throws InterruptedException {
                InFlightLimitFilter.releaseEarly(request);
                InFlightLimitFilter.releaseEarly(request);
                held.countDown();
                holding.await(10, TimeUnit.SECONDS);
                return "released";
            }

            @GetMapping("/transactions/one")
            String oneTransaction() {
                return transactions.execute(status -> "committed");
            }

            /** Answers twice the name it was sent, and the quantity. */
            @PostMapping("/things/echo")
            String echo(@Valid @RequestBody NewThing thing) {
                return thing.name().repeat(2) + thing.quantity();
            }

            @GetMapping("/things/many")
            List<NewThing> many(@RequestParam int count) {
                return IntStream.range(0, count)
                        .mapToObj(i -> new NewThing("thing " + i, i + 1))
                        .toList();
            }

            /** An entity, a value of a class chosen at run time, or a future: each answered by its own handler. */
            @GetMapping("/things/answered-as")
            Object answeredAs(@RequestParam String as) {
                return switch (as) {
                    case "entity" ->
                        ResponseEntity.status(201)
                                .header("Location", "/things/1")
                                .body(new NewThing("e", 1));
                    case "future" -> CompletableFuture.supplyAsync(() -> new NewThing("f", 2));
                    default -> new NewThing(as, 3);
                };
            }

            @PostMapping("/things")
            EventMetadata create(@Valid @RequestBody NewThing thing) {
                if (thing.quantity() > 100) {
                    throw ApiException.unprocessable("QUANTITY_TOO_LARGE", "At most 100 things at once");
                }
                return RequestMetadata.current();
            }
        }
    }
}
