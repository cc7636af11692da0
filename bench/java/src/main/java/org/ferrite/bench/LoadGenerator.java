package org.ferrite.bench;

import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import javax.jms.BytesMessage;
import javax.jms.Connection;
import javax.jms.ConnectionFactory;
import javax.jms.DeliveryMode;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Session;

/**
 * The network half of the benchmark: MP16's workloads 1-3 driven through JMS against one broker,
 * so Ferrite (IBM's JMS client), RabbitMQ and Artemis see the same client program.
 *
 * <p>Usage: {@code LoadGenerator --broker ferrite|rabbitmq|artemis --port N [--host H]
 * [--qmgr QM --channel CH] [--mode smoke|quick|full] [--run ID] [--results FILE]
 * [--only network,stream,request-reply-persistent] [--broker-pid PID] [--warmup S --seconds S]}. Results are
 * appended to FILE as JSON lines with ferrite-bench's fields (run, mode, bench, metric, value,
 * unit, reference, reference_value, ratio, goal, met) plus system, workload, size, putters,
 * getters, requesters, repliers and persistent, so one report reads both. A broker that cannot
 * be reached gets one line with status "not available" and the reason, and the exit code is 0.
 *
 * <p>Workloads, each a cell run for a warm-up and then a measured interval:
 * <ul>
 *   <li>{@code network} (bench "network"): the network path's cells at 1 KiB, request/reply
 *       non-persistent and persistent at 1 requester (1 replier), 8 and 32 requesters (4
 *       repliers), streaming non-persistent and persistent 4 + 4 (the two workloads below, in
 *       those shapes), with 5 s warm-up and 15 s measured in full mode (2 + 5 quick). With
 *       {@code --broker-pid}, each reports the broker process's CPU (utime + stime of
 *       /proc/PID/stat) and context switches (over /proc/PID/task) per operation over exactly the
 *       measured interval, and this generator's own share of the machine's CPU.
 *   <li>{@code jms-stream} ({@code stream}): one-way streaming, MP16's single queue: 4 putters and 4 getters on one
 *       queue, each with its own connection, every send and every receive in its own transaction
 *       (commit per message). The queue is kept shallow (at most {@link #STREAM_DEPTH_CAP} messages
 *       in flight) as in MP16's low-depth run. Non-persistent at MP16's sizes above 1 KB;
 *       persistent at 10 KB in full mode (1 KB: the network cells). Latency: from the send to the getter's receive, from a timestamp in the body.
 *   <li>{@code jms-request-reply} ({@code request-reply-persistent}: 10 KB; 1 KB is in the
 *       network cells): a common server queue; each requester sends a request and waits
 *       for its reply, correlated by JMSCorrelationID = the request's JMSMessageID. Non-persistent
 *       requests are sent and received outside any transaction (MP16: out-of-syncpoint MQPUT, then
 *       MQGET); repliers receive, send the reply and commit. Persistent: requesters commit after the
 *       send and after the receive, repliers after receive+send, so every put and get is committed.
 *       Each requester has its own reply queue, because JMS has no get-by-MsgId on a shared queue
 *       short of a selector consumer per request; MP16's shared MsgId-indexed reply queue is what
 *       ferrite-bench's local request/reply measures.
 * </ul>
 */
public final class LoadGenerator {
    /** The network cells' message size: 1 KiB. */
    static final int NETWORK_BYTES = 1_024;
    /** Messages a streaming cell lets be in flight between putters and getters. */
    static final int STREAM_DEPTH_CAP = 200;
    /** How long a requester waits for its reply before it counts a timeout. */
    static final long REPLY_TIMEOUT_MS = 10_000;
    /** Latency samples kept per thread; later samples are not recorded (counts still are). */
    static final int SAMPLES_PER_THREAD = 1 << 18;
    /** Bytes at the start of each body: the send time (System.nanoTime) and the requester index. */
    static final int HEADER_BYTES = 12;

    /** MP16's single private queue (ch. 7, L7818-7830), msgs/s by size. */
    static final long[][] MQ_STREAM = {
        {1_000, 114_060}, {5_000, 107_230}, {10_000, 102_600}, {30_000, 82_720}, {100_000, 49_520}
    };
    /** MP16's local request/reply, one queue pair (ch. 7, L7846-7862): repliers, requesters, tx/s. */
    static final long[][] MQ_REQUEST_REPLY = {
        {1, 1, 33_332}, {4, 1, 32_598}, {4, 2, 53_986}, {4, 3, 67_165}, {4, 4, 76_923}, {1, 4, 48_647}
    };
    /** MP16's persistent single-replier case (ch. 7, L7920-7935): 12 requesters, 10 KB, tx/s. */
    static final double MQ_PERSISTENT_SINGLE_REPLIER = 2_216;

    private final Brokers.Endpoint endpoint;
    private final ConnectionFactory factory;
    private final String mode;
    private final String run;
    private final String results;
    private final double seconds;
    private final double warmup;
    /** How consumers take messages: a receive() loop, or a MessageListener (push). */
    private final boolean listener;
    /** The broker's process id ({@code --broker-pid}), whose CPU and context switches are measured; 0 for none. */
    private final long brokerPid;
    /** The network cells' warm-up and measured interval, in seconds. */
    private final double networkWarmup;
    private final double networkSeconds;
    /** The broker's usage over the last measured interval (null when not measured). */
    private BrokerUsage.Delta lastUsage;
    /** This generator's own usage over the last measured interval, and that interval's length. */
    private BrokerUsage.Delta lastClientUsage;
    private double lastElapsed;

    private LoadGenerator(Brokers.Endpoint endpoint, String mode, String run, String results, String consume,
            long brokerPid, double networkWarmup, double networkSeconds) throws JMSException {
        this.endpoint = endpoint;
        this.brokerPid = brokerPid;
        switch (consume) {
            case "receive": listener = false; break;
            case "listener": listener = true; break;
            // RabbitMQ's JMS client implements receive(timeout) by polling basic.get every 100 ms,
            // so a synchronous consumer waits up to 100 ms per message; its MessageListener is a
            // basic.consume push consumer. The other clients' receive() waits on pushed messages.
            case "default": listener = endpoint.kind() == Brokers.Kind.RABBITMQ; break;
            default: throw new IllegalArgumentException("unknown --consume '" + consume + "': expected receive, listener or default");
        }
        this.factory = Brokers.factory(endpoint);
        this.mode = mode;
        this.run = run;
        this.results = results;
        switch (mode) {
            case "smoke": seconds = 0.5; warmup = 0.2; break;
            case "quick": seconds = 2.0; warmup = 0.5; break;
            case "full": seconds = 10.0; warmup = 2.0; break;
            default: throw new IllegalArgumentException("unknown mode '" + mode + "': expected smoke, quick or full");
        }
        this.networkWarmup = networkWarmup >= 0 ? networkWarmup : pickDouble(mode, 0.5, 2.0, 5.0);
        this.networkSeconds = networkSeconds > 0 ? networkSeconds : pickDouble(mode, 1.5, 5.0, 15.0);
    }

    private static double pickDouble(String mode, double smoke, double quick, double full) {
        return mode.equals("smoke") ? smoke : mode.equals("quick") ? quick : full;
    }

    public static void main(String[] args) throws Exception {
        String broker = null, host = "127.0.0.1", qmgr = "BENCHQM", channel = "DEV.APP.SVRCONN";
        String mode = "quick", run = "jms-" + System.currentTimeMillis(), results = "ferrite-bench-results.jsonl";
        String only = "network,stream,request-reply-persistent";
        String consume = "default";
        int port = -1;
        long brokerPid = 0;
        double networkWarmup = -1, networkSeconds = -1;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--broker": broker = value; i++; break;
                case "--host": host = value; i++; break;
                case "--port": port = Integer.parseInt(value); i++; break;
                case "--qmgr": qmgr = value; i++; break;
                case "--channel": channel = value; i++; break;
                case "--mode": mode = value; i++; break;
                case "--run": run = value; i++; break;
                case "--results": results = value; i++; break;
                case "--only": only = value; i++; break;
                case "--consume": consume = value; i++; break;
                case "--broker-pid": brokerPid = Long.parseLong(value); i++; break;
                case "--warmup": networkWarmup = Double.parseDouble(value); i++; break;
                case "--seconds": networkSeconds = Double.parseDouble(value); i++; break;
                default:
                    System.err.println("unknown argument '" + args[i] + "'");
                    System.exit(2);
            }
        }
        if (broker == null || port <= 0) {
            System.err.println("usage: LoadGenerator --broker ferrite|rabbitmq|artemis --port N [--host H] "
                    + "[--qmgr QM] [--channel CH] [--mode smoke|quick|full] [--run ID] [--results FILE] [--only LIST] "
                    + "[--consume receive|listener|default] [--broker-pid PID] [--warmup S] [--seconds S]");
            System.exit(2);
        }
        Brokers.Endpoint endpoint = new Brokers.Endpoint(Brokers.Kind.parse(broker), host, port, qmgr, channel);
        LoadGenerator generator = new LoadGenerator(endpoint, mode, run, results, consume, brokerPid,
                networkWarmup, networkSeconds);
        String unreachable = generator.probe();
        if (unreachable != null) {
            System.out.println("== " + broker + ": not available (" + unreachable + "); its column is skipped");
            generator.emitUnavailable(unreachable);
            return;
        }
        List<String> selected = Arrays.asList(only.split(","));
        if (selected.contains("network")) {
            generator.network();
        }
        if (selected.contains("stream")) {
            generator.streaming();
        }
        if (selected.contains("request-reply-persistent")) {
            generator.requestReplyPersistent();
        }
        System.exit(0); // some clients leave non-daemon threads behind
    }

    /** Null when a connection can be made, else why not. */
    private String probe() {
        try (Connection connection = factory.createConnection()) {
            connection.start();
            return null;
        } catch (Exception error) {
            Throwable cause = error;
            StringBuilder text = new StringBuilder();
            while (cause != null) {
                if (text.length() > 0) {
                    text.append(": ");
                }
                text.append(cause.getClass().getSimpleName()).append(' ').append(cause.getMessage());
                cause = cause.getCause() == cause ? null : cause.getCause();
            }
            return "cannot connect to " + endpoint.host() + ":" + endpoint.port() + ": " + text;
        }
    }

    // ---------------------------------------------------------------- workloads

    private void streaming() throws Exception {
        System.out.println("== " + label() + " jms-stream: 4 putters + 4 getters, commit per message (1 KiB: the network cells)");
        long[] sizes = pick(new long[] {10_000}, new long[] {10_000, 100_000},
                new long[] {5_000, 10_000, 30_000, 100_000});
        for (long size : sizes) {
            Double mq = null;
            for (long[] row : MQ_STREAM) {
                if (row[0] == size) {
                    mq = (double) row[1];
                }
            }
            stream((int) size, false, mq == null ? null : new Reference("MQ 9.3 single queue NP, 3-processor z/OS (MP16 ch7 L7818-7830)", mq), null);
        }
        if (mode.equals("full")) {
            stream(10_000, true, null, null);
        }
    }

    /**
     * The network path's cells (1 KiB): request/reply non-persistent and persistent (transacted
     * sessions) at 1 requester (1 replier), 8 and 32 requesters (4 repliers), and streaming
     * non-persistent and persistent, 4 putters + 4 getters with a commit per message. Each has its
     * own warm-up and measured interval ({@code --warmup}, {@code --seconds}) and reports the
     * broker's CPU and context switches per operation when {@code --broker-pid} is given.
     */
    private void network() throws Exception {
        System.out.printf(Locale.ROOT, "== %s network cells: 1,024 B, %.1f s warm-up + %.1f s measured, broker pid %s%n",
                label(), networkWarmup, networkSeconds, brokerPid > 0 ? Long.toString(brokerPid) : "not given");
        for (boolean persistent : new boolean[] {false, true}) {
            for (int[] shape : new int[][] {{1, 1}, {4, 8}, {4, 32}}) {
                int repliers = shape[0], requesters = shape[1];
                String cell = "rr-" + (persistent ? "p" : "np") + "-" + requesters;
                if (!wanted(cell)) {
                    continue;
                }
                cellRequestReply(NETWORK_BYTES, persistent, repliers, requesters,
                        persistent ? null : reference(repliers, requesters), cell);
            }
        }
        if (wanted("stream-np-4x4")) {
            stream(NETWORK_BYTES, false, null, "stream-np-4x4");
        }
        if (wanted("stream-p-4x4")) {
            stream(NETWORK_BYTES, true, null, "stream-p-4x4");
        }
    }

    /**
     * Whether the network cell {@code cell} runs: every cell, unless the system property
     * {@code ferrite.bench.cells} lists the ones to run (comma-separated, e.g. {@code rr-p-8}).
     */
    private static boolean wanted(String cell) {
        String cells = System.getProperty("ferrite.bench.cells");
        return cells == null || Arrays.asList(cells.split(",")).contains(cell);
    }

    private void requestReplyPersistent() throws Exception {
        System.out.println("== " + label() + " jms-request-reply persistent: commit per put and per get (1 KiB: the network cells)");
        for (long requesters : pick(new long[] {4}, new long[] {1, 4, 16, 64}, new long[] {1, 2, 4, 8, 16, 32, 64})) {
            cellRequestReply(10_000, true, 4, (int) requesters, null, null);
        }
        cellRequestReply(10_000, true, 1, mode.equals("smoke") ? 2 : 12, new Reference(
                "MQ 9.3 persistent single replier, 12 requesters, 10 KB (MP16 ch7 L7920-7935)", MQ_PERSISTENT_SINGLE_REPLIER), null);
    }

    private static Reference reference(long repliers, long requesters) {
        for (long[] row : MQ_REQUEST_REPLY) {
            if (row[0] == repliers && row[1] == requesters) {
                return new Reference("MQ 9.3 local request/reply, 1 queue pair, 6-way z/OS (MP16 ch7 L7846-7862)", row[2]);
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- one streaming cell

    private void stream(int size, boolean persistent, Reference mq, String cell) throws Exception {
        String queueName = "BENCH.STREAM";
        int putters = 4, getters = 4;
        AtomicBoolean stop = new AtomicBoolean(false);
        AtomicBoolean measuring = new AtomicBoolean(false);
        AtomicLong got = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        Semaphore inFlight = new Semaphore(STREAM_DEPTH_CAP);
        List<Samples> samples = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < putters; i++) {
            Connection connection = factory.createConnection();
            connections.add(connection);
            threads.add(new Thread(() -> {
                try {
                    Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
                    MessageProducer producer = session.createProducer(Brokers.queue(endpoint.kind(), session, queueName));
                    producer.setDeliveryMode(persistent ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
                    byte[] body = payload(size);
                    while (!stop.get()) {
                        if (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                            continue;
                        }
                        stamp(body, System.nanoTime(), 0);
                        BytesMessage message = session.createBytesMessage();
                        message.writeBytes(body);
                        producer.send(message);
                        session.commit();
                    }
                } catch (Exception error) {
                    failures.incrementAndGet();
                    if (!stop.get()) {
                        System.err.println("  putter failed: " + error);
                    }
                }
            }, "putter-" + i));
        }
        for (int i = 0; i < getters; i++) {
            Connection connection = factory.createConnection();
            connections.add(connection);
            Samples mine = new Samples();
            samples.add(mine);
            threads.add(new Thread(() -> {
                try {
                    Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
                    MessageConsumer consumer = session.createConsumer(Brokers.queue(endpoint.kind(), session, queueName));
                    byte[] header = new byte[HEADER_BYTES];
                    consume(connection, consumer, stop, message -> {
                        ((BytesMessage) message).readBytes(header);
                        session.commit();
                        inFlight.release();
                        if (measuring.get()) {
                            got.incrementAndGet();
                            mine.add(System.nanoTime() - ByteBuffer.wrap(header).getLong(0));
                        }
                    });
                } catch (Exception error) {
                    failures.incrementAndGet();
                    if (!stop.get()) {
                        System.err.println("  getter failed: " + error);
                    }
                }
            }, "getter-" + i));
        }
        double elapsed = measure(threads, stop, measuring, cell != null);
        closeAll(connections);
        drain(queueName);
        String metric = size + " B " + (persistent ? "persistent" : "non-persistent") + ", 4 putters + 4 getters, commit per message";
        Latency latency = Latency.of(samples);
        double rate = got.get() / elapsed;
        System.out.printf(Locale.ROOT, "  %s: %.0f msgs/s, put-to-get latency p50 %.0f us, p99 %.0f us%s%n",
                metric, rate, latency.p50, latency.p99, failures.get() > 0 ? ", " + failures.get() + " thread failures" : "");
        Fields fields = new Fields(cell != null ? "network" : "jms-stream", "stream").size(size).persistent(persistent)
                .put("putters", 4).put("getters", 4);
        if (cell != null) {
            fields.string("cell", cell);
        }
        emit(fields.with("rate"), metric + ": msgs/s", rate, "msgs/s", mq);
        emitUsage(fields, metric, got.get(), "message");
        emit(fields.with("p50"), metric + ": put-to-get latency p50", latency.p50, "us", null);
        emit(fields.with("p99"), metric + ": put-to-get latency p99", latency.p99, "us", null);
        emit(fields.with("mean"), metric + ": put-to-get latency mean", latency.mean, "us", null);
    }

    // ---------------------------------------------------------------- one request/reply cell

    private void cellRequestReply(int size, boolean persistent, int repliers, int requesters, Reference mq, String cell)
            throws Exception {
        String serverName = "BENCH.SERVER";
        AtomicBoolean stopRequesters = new AtomicBoolean(false);
        AtomicBoolean stopRepliers = new AtomicBoolean(false);
        AtomicBoolean measuring = new AtomicBoolean(false);
        AtomicLong transactions = new AtomicLong();
        AtomicLong timeouts = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        List<Samples> samples = new ArrayList<>();
        List<Thread> replierThreads = new ArrayList<>();
        List<Thread> requesterThreads = new ArrayList<>();
        List<Connection> connections = new ArrayList<>();
        int deliveryMode = persistent ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT;
        for (int i = 0; i < repliers; i++) {
            Connection connection = factory.createConnection();
            connections.add(connection);
            replierThreads.add(new Thread(() -> {
                try {
                    Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
                    MessageConsumer consumer = session.createConsumer(Brokers.queue(endpoint.kind(), session, serverName));
                    MessageProducer[] replies = new MessageProducer[requesters];
                    for (int r = 0; r < requesters; r++) {
                        replies[r] = session.createProducer(Brokers.queue(endpoint.kind(), session, replyName(r)));
                        replies[r].setDeliveryMode(deliveryMode);
                    }
                    byte[] body = new byte[size];
                    consume(connection, consumer, stopRepliers, request -> {
                        int length = ((BytesMessage) request).readBytes(body);
                        int requester = ByteBuffer.wrap(body).getInt(8);
                        BytesMessage reply = session.createBytesMessage();
                        reply.writeBytes(body, 0, length);
                        reply.setJMSCorrelationID(request.getJMSMessageID());
                        replies[requester].send(reply);
                        session.commit();
                    });
                } catch (Exception error) {
                    failures.incrementAndGet();
                    if (!stopRepliers.get()) {
                        System.err.println("  replier failed: " + error);
                    }
                }
            }, "replier-" + i));
        }
        for (int i = 0; i < requesters; i++) {
            int index = i;
            Connection connection = factory.createConnection();
            connections.add(connection);
            Samples mine = new Samples();
            samples.add(mine);
            requesterThreads.add(new Thread(() -> {
                try {
                    Session session = persistent
                            ? connection.createSession(true, Session.SESSION_TRANSACTED)
                            : connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    MessageProducer producer = session.createProducer(Brokers.queue(endpoint.kind(), session, serverName));
                    producer.setDeliveryMode(deliveryMode);
                    ReplySource replies = replySource(connection, session, persistent, replyName(index));
                    connection.start();
                    byte[] body = payload(size);
                    while (!stopRequesters.get()) {
                        long started = System.nanoTime();
                        stamp(body, started, index);
                        BytesMessage request = session.createBytesMessage();
                        request.writeBytes(body);
                        producer.send(request);
                        if (persistent) {
                            session.commit();
                        }
                        String id = request.getJMSMessageID();
                        String correlation;
                        do {
                            correlation = replies.next(REPLY_TIMEOUT_MS);
                            // A reply to an earlier, timed-out request is skipped.
                        } while (correlation != null && !id.equals(correlation));
                        if (correlation == null) {
                            timeouts.incrementAndGet();
                            continue;
                        }
                        if (measuring.get()) {
                            transactions.incrementAndGet();
                            mine.add(System.nanoTime() - started);
                        }
                    }
                } catch (Exception error) {
                    failures.incrementAndGet();
                    if (!stopRequesters.get()) {
                        System.err.println("  requester failed: " + error);
                    }
                }
            }, "requester-" + i));
        }
        for (Thread thread : replierThreads) {
            thread.start();
        }
        double elapsed = measure(requesterThreads, stopRequesters, measuring, cell != null);
        stopRepliers.set(true);
        for (Thread thread : replierThreads) {
            thread.join();
        }
        closeAll(connections);
        drain(serverName);
        String metric = size + " B " + (persistent ? "persistent, commit per put and get" : "non-persistent")
                + ", " + repliers + (repliers == 1 ? " replier, " : " repliers, ") + requesters
                + (requesters == 1 ? " requester" : " requesters");
        Latency latency = Latency.of(samples);
        double rate = transactions.get() / elapsed;
        System.out.printf(Locale.ROOT, "  %s: %.0f tx/s, round trip p50 %.0f us, p99 %.0f us%s%s%n", metric, rate,
                latency.p50, latency.p99, timeouts.get() > 0 ? ", " + timeouts.get() + " reply timeouts" : "",
                failures.get() > 0 ? ", " + failures.get() + " thread failures" : "");
        Fields fields = new Fields(cell != null ? "network" : "jms-request-reply",
                persistent ? "request-reply-persistent" : "request-reply")
                .size(size).persistent(persistent).put("repliers", repliers).put("requesters", requesters);
        if (cell != null) {
            fields.string("cell", cell);
        }
        emit(fields.with("rate"), metric + ": transactions/s", rate, "tx/s", mq);
        emitUsage(fields, metric, transactions.get(), "round trip");
        emit(fields.with("p50"), metric + ": round trip p50", latency.p50, "us", null);
        emit(fields.with("p99"), metric + ": round trip p99", latency.p99, "us", null);
        emit(fields.with("mean"), metric + ": round trip mean", latency.mean, "us", null);
    }

    // ---------------------------------------------------------------- consumption

    interface Handler {
        void handle(Message message) throws Exception;
    }

    /**
     * Feed {@code consumer}'s messages to {@code handler} until {@code stop}: in a receive() loop on
     * this thread, or through a MessageListener (the handler then runs on the client's delivery
     * thread, which owns the session, as JMS requires; this thread just waits).
     */
    private void consume(Connection connection, MessageConsumer consumer, AtomicBoolean stop, Handler handler)
            throws Exception {
        if (listener) {
            consumer.setMessageListener(message -> {
                try {
                    handler.handle(message);
                } catch (Exception error) {
                    if (!stop.get()) {
                        System.err.println("  listener failed: " + error);
                    }
                }
            });
            connection.start();
            while (!stop.get()) {
                Thread.sleep(20);
            }
            consumer.close();
            return;
        }
        connection.start();
        while (!stop.get()) {
            Message message = consumer.receive(100);
            if (message != null) {
                handler.handle(message);
            }
        }
    }

    /** Where a requester's replies come from: the correlation ids, in arrival order. */
    interface ReplySource {
        /** The next reply's JMSCorrelationID, or null after {@code timeoutMs}. */
        String next(long timeoutMs) throws Exception;
    }

    /**
     * A requester's replies. With receive(), on the requester's own session (committed after each
     * receive when persistent). With a listener, on a second session of the same connection whose
     * listener commits each receive (when persistent) and hands the correlation id over: a session
     * with a listener may not be used by another thread, and the requester keeps sending on its own.
     */
    private ReplySource replySource(Connection connection, Session session, boolean persistent, String queueName)
            throws JMSException {
        if (!listener) {
            MessageConsumer consumer = session.createConsumer(Brokers.queue(endpoint.kind(), session, queueName));
            return timeoutMs -> {
                Message reply = consumer.receive(timeoutMs);
                if (persistent) {
                    session.commit();
                }
                return reply == null ? null : reply.getJMSCorrelationID();
            };
        }
        Session receiving = persistent
                ? connection.createSession(true, Session.SESSION_TRANSACTED)
                : connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = receiving.createConsumer(Brokers.queue(endpoint.kind(), receiving, queueName));
        java.util.concurrent.BlockingQueue<String> arrived = new java.util.concurrent.LinkedBlockingQueue<>();
        consumer.setMessageListener(reply -> {
            try {
                if (persistent) {
                    receiving.commit();
                }
                arrived.add(reply.getJMSCorrelationID());
            } catch (JMSException error) {
                System.err.println("  reply listener failed: " + error);
            }
        });
        return timeoutMs -> arrived.poll(timeoutMs, TimeUnit.MILLISECONDS);
    }

    // ---------------------------------------------------------------- helpers

    private String label() {
        return endpoint.kind().label();
    }

    private long[] pick(long[] smoke, long[] quick, long[] full) {
        switch (mode) {
            case "smoke": return smoke;
            case "quick": return quick;
            default: return full;
        }
    }

    private static String replyName(int requester) {
        return "BENCH.REPLY." + requester;
    }

    /**
     * Start the threads, warm up, measure, stop; the measured interval in seconds. The broker's
     * usage over exactly that interval goes to {@link #lastUsage}. A network cell takes the network
     * cells' warm-up and interval.
     */
    private double measure(List<Thread> threads, AtomicBoolean stop, AtomicBoolean measuring, boolean networkCell)
            throws InterruptedException {
        for (Thread thread : threads) {
            thread.start();
        }
        Thread.sleep((long) ((networkCell ? networkWarmup : warmup) * 1000));
        lastUsage = null;
        lastClientUsage = null;
        long self = ProcessHandle.current().pid();
        BrokerUsage clientBefore = BrokerUsage.of(self);
        BrokerUsage before = brokerPid > 0 ? BrokerUsage.of(brokerPid) : null;
        long started = System.nanoTime();
        measuring.set(true);
        Thread.sleep((long) ((networkCell ? networkSeconds : seconds) * 1000));
        measuring.set(false);
        long ended = System.nanoTime();
        BrokerUsage after = before != null ? BrokerUsage.of(brokerPid) : null;
        BrokerUsage clientAfter = clientBefore != null ? BrokerUsage.of(self) : null;
        if (after != null) {
            lastUsage = after.since(before);
        }
        if (clientAfter != null) {
            lastClientUsage = clientAfter.since(clientBefore);
        }
        lastElapsed = (ended - started) / 1e9;
        stop.set(true);
        for (Thread thread : threads) {
            thread.join();
        }
        return (ended - started) / 1e9;
    }

    /** Remove what a cell left on a queue, so the next cell starts from an empty one. */
    private void drain(String queueName) throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(Brokers.queue(endpoint.kind(), session, queueName));
            connection.start();
            int drained = 0;
            while (consumer.receive(200) != null) {
                drained++;
            }
            if (drained > 0) {
                System.out.println("  (drained " + drained + " messages left on " + queueName + ")");
            }
        }
    }

    private static void closeAll(List<Connection> connections) {
        for (Connection connection : connections) {
            try {
                connection.close();
            } catch (JMSException error) {
                // the cell is over; a failed close changes no figure
            }
        }
    }

    private static byte[] payload(int size) {
        byte[] body = new byte[Math.max(size, HEADER_BYTES)];
        for (int i = HEADER_BYTES; i < body.length; i++) {
            body[i] = (byte) ('A' + i % 26);
        }
        return body;
    }

    private static void stamp(byte[] body, long nanos, int requester) {
        ByteBuffer.wrap(body).putLong(0, nanos).putInt(8, requester);
    }

    // ---------------------------------------------------------------- results

    record Reference(String label, double value) {}

    /** The structured fields of a result line, beside ferrite-bench's. */
    static final class Fields {
        final String bench;
        final StringBuilder extra = new StringBuilder();

        Fields(String bench, String workload) {
            this.bench = bench;
            string("workload", workload);
        }

        Fields size(int size) {
            return put("size", size);
        }

        Fields persistent(boolean persistent) {
            extra.append(",\"persistent\":").append(persistent);
            return this;
        }

        Fields put(String name, long value) {
            extra.append(",\"").append(name).append("\":").append(value);
            return this;
        }

        Fields string(String name, String value) {
            extra.append(",\"").append(name).append("\":").append(json(value));
            return this;
        }

        /** A copy with the quantity a line reports (rate, cpu_us_per_op, ...). */
        Fields with(String quantity) {
            Fields copy = new Fields(bench, extra);
            return copy.string("quantity", quantity);
        }

        private Fields(String bench, StringBuilder extra) {
            this.bench = bench;
            this.extra.append(extra);
        }
    }

    /** The broker's CPU and context switches per operation over the last measured interval. */
    private void emitUsage(Fields fields, String metric, long operations, String operation) throws IOException {
        if (lastUsage == null || operations <= 0) {
            if (brokerPid > 0) {
                System.out.println("  (broker usage not measured: " + (lastUsage == null ? "/proc/" + brokerPid + " unreadable" : "no operations") + ")");
            }
            return;
        }
        double cpuUs = lastUsage.cpuSeconds() * 1e6 / operations;
        double switches = lastUsage.contextSwitches() / (double) operations;
        System.out.printf(Locale.ROOT, "  broker (pid %d): %.1f CPU us and %.2f context switches per %s%s%n", brokerPid,
                cpuUs, switches, operation,
                lastUsage.exitedThreads() > 0 ? " (broker threads that exited in the interval, their switches not counted: " + lastUsage.exitedThreads() + ")" : "");
        Fields usage = new Fields(fields.bench, fields.extra).put("broker_pid", brokerPid)
                .put("broker_threads_exited", lastUsage.exitedThreads());
        emit(usage.with("cpu_us_per_op"), metric + ": broker CPU per " + operation, cpuUs, "us", null);
        emit(usage.with("ctxsw_per_op"), metric + ": broker context switches per " + operation, switches, "switches", null);
        if (lastClientUsage != null && lastElapsed > 0) {
            // The share of the machine's CPUs this generator used: whether the client saturates it.
            double share = lastClientUsage.cpuSeconds() / (lastElapsed * Runtime.getRuntime().availableProcessors());
            System.out.printf(Locale.ROOT, "  load generator: %.0f%% of the machine's CPU%n", share * 100);
            emit(usage.with("client_cpu_share"), metric + ": load generator's share of the machine's CPU", share, "fraction", null);
        }
    }

    private void emit(Fields fields, String metric, double value, String unit, Reference reference) throws IOException {
        StringBuilder line = new StringBuilder();
        line.append("{\"run\":").append(json(run))
                .append(",\"mode\":").append(json(mode))
                .append(",\"bench\":").append(json(fields.bench))
                .append(",\"system\":").append(json(label()))
                .append(",\"client\":").append(json(client()))
                .append(",\"consume\":").append(json(listener ? "listener" : "receive"))
                .append(",\"metric\":").append(json(metric))
                .append(",\"value\":").append(number(value))
                .append(",\"unit\":").append(json(unit));
        if (reference != null) {
            line.append(",\"reference\":").append(json(reference.label()))
                    .append(",\"reference_value\":").append(number(reference.value()))
                    .append(",\"ratio\":").append(number(value / reference.value()));
        } else {
            line.append(",\"reference\":null,\"reference_value\":null,\"ratio\":null");
        }
        line.append(",\"goal\":null,\"met\":null").append(fields.extra).append('}');
        append(line.toString());
    }

    private void emitUnavailable(String reason) throws IOException {
        append("{\"run\":" + json(run) + ",\"mode\":" + json(mode) + ",\"bench\":\"jms\",\"system\":" + json(label())
                + ",\"client\":" + json(client()) + ",\"metric\":\"status\",\"value\":null,\"unit\":null,"
                + "\"reference\":null,\"reference_value\":null,\"ratio\":null,\"goal\":null,\"met\":null,"
                + "\"status\":\"not available\",\"reason\":" + json(reason) + "}");
    }

    private String client() {
        switch (endpoint.kind()) {
            case FERRITE: return "IBM MQ JMS client (com.ibm.mq.allclient)";
            case RABBITMQ: return "RabbitMQ JMS client";
            default: return "Artemis JMS client";
        }
    }

    private void append(String line) throws IOException {
        try (PrintWriter out = new PrintWriter(new FileWriter(results, true))) {
            out.println(line);
        }
    }

    static String number(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.3f", value) : "null";
    }

    static String json(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                default:
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        return out.append('"').toString();
    }

    // ---------------------------------------------------------------- latency

    /** One thread's latency samples in nanoseconds (no locking: only its thread adds). */
    static final class Samples {
        final long[] values = new long[SAMPLES_PER_THREAD];
        int count;

        void add(long nanos) {
            if (count < values.length) {
                values[count++] = nanos;
            }
        }
    }

    /** Latency summary in microseconds. */
    record Latency(double mean, double p50, double p99) {
        static Latency of(List<Samples> samples) {
            int total = 0;
            for (Samples s : samples) {
                total += s.count;
            }
            if (total == 0) {
                return new Latency(Double.NaN, Double.NaN, Double.NaN);
            }
            long[] all = new long[total];
            int at = 0;
            double sum = 0;
            for (Samples s : samples) {
                System.arraycopy(s.values, 0, all, at, s.count);
                at += s.count;
            }
            Arrays.sort(all);
            for (long value : all) {
                sum += value;
            }
            return new Latency(sum / total / 1e3, all[(int) (total * 0.50)] / 1e3,
                    all[Math.min(total - 1, (int) (total * 0.99))] / 1e3);
        }
    }
}
