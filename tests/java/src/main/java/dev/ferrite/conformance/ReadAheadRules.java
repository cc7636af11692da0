package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.MQException;
import com.ibm.mq.MQGetMessageOptions;
import com.ibm.mq.MQMessage;
import com.ibm.mq.MQPutMessageOptions;
import com.ibm.mq.MQQueue;
import com.ibm.mq.MQQueueManager;
import com.ibm.mq.constants.CMQC;
import java.util.Hashtable;

/**
 * Read-ahead as MQ documents it, with IBM MQ classes for Java against a DEFREADA(YES) queue:
 * persistent messages are not sent ahead (each is returned to a real MQGET, in its place among
 * the non-persistent ones read ahead), and MQCLOSE with MQCO_QUIESCE while messages read ahead
 * wait fails with MQRC_READ_AHEAD_MSGS (2458), the handle staying open until they are got.
 * Arguments: queue manager name, host, port, channel, queue (DEFREADA(YES), empty).
 */
public final class ReadAheadRules {
    private final String qmgrName;
    private final Hashtable<String, Object> properties = new Hashtable<>();
    private final String queueName;

    private ReadAheadRules(String[] args) {
        qmgrName = args[0];
        properties.put(CMQC.HOST_NAME_PROPERTY, args[1]);
        properties.put(CMQC.PORT_PROPERTY, Integer.parseInt(args[2]));
        properties.put(CMQC.CHANNEL_PROPERTY, args[3]);
        properties.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_CLIENT);
        queueName = args[4];
    }

    public static void main(String[] args) throws Exception {
        System.exit(new ReadAheadRules(args).run());
    }

    /** Puts "message i" for i in [from, to), persistent where `persistent` says. */
    private void fill(MQQueueManager qmgr, int from, int to, java.util.function.IntPredicate persistent)
            throws Exception {
        MQQueue queue = qmgr.accessQueue(queueName, CMQC.MQOO_OUTPUT);
        MQPutMessageOptions pmo = new MQPutMessageOptions();
        pmo.options = CMQC.MQPMO_NO_SYNCPOINT;
        for (int index = from; index < to; index++) {
            MQMessage message = new MQMessage();
            message.format = CMQC.MQFMT_STRING;
            message.persistence = persistent.test(index) ? CMQC.MQPER_PERSISTENT
                    : CMQC.MQPER_NOT_PERSISTENT;
            message.writeString("message " + index);
            queue.put(message, pmo);
        }
        queue.close();
    }

    private static MQGetMessageOptions waiting() {
        MQGetMessageOptions gmo = new MQGetMessageOptions();
        gmo.options = CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_WAIT;
        gmo.waitInterval = 5_000;
        return gmo;
    }

    private int depth(MQQueueManager qmgr) throws Exception {
        MQQueue queue = qmgr.accessQueue(queueName, CMQC.MQOO_INQUIRE);
        int depth = queue.getCurrentDepth();
        queue.close();
        return depth;
    }

    private int run() {
        Checks checks = new Checks();
        checks.check("persistent messages come to real MQGETs, in order among those read ahead",
                () -> {
                    MQQueueManager qmgr = new MQQueueManager(qmgrName, properties);
                    // Every third message persistent.
                    fill(qmgr, 0, 30, index -> index % 3 == 2);
                    MQQueue queue = qmgr.accessQueue(queueName,
                            CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_READ_AHEAD);
                    for (int index = 0; index < 30; index++) {
                        MQMessage message = new MQMessage();
                        queue.get(message, waiting());
                        equal("message " + index,
                                message.readStringOfByteLength(message.getDataLength()),
                                "message in order");
                        equal(index % 3 == 2 ? CMQC.MQPER_PERSISTENT : CMQC.MQPER_NOT_PERSISTENT,
                                message.persistence, "persistence of message " + index);
                    }
                    queue.close();
                    equal(0, depth(qmgr), "queue drained");
                    qmgr.disconnect();
                });
        checks.check("MQCO_QUIESCE with messages read ahead: MQRC_READ_AHEAD_MSGS, handle open",
                () -> {
                    MQQueueManager qmgr = new MQQueueManager(qmgrName, properties);
                    fill(qmgr, 0, 20, index -> false);
                    MQQueue queue = qmgr.accessQueue(queueName,
                            CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_READ_AHEAD);
                    MQMessage first = new MQMessage();
                    queue.get(first, waiting());
                    // Give the read-ahead time to bring the rest.
                    Thread.sleep(300);
                    queue.closeOptions = CMQC.MQCO_QUIESCE;
                    int reason = 0;
                    try {
                        queue.close();
                    } catch (MQException expected) {
                        reason = expected.reasonCode;
                    }
                    equal(CMQC.MQRC_READ_AHEAD_MSGS, reason, "MQCLOSE(MQCO_QUIESCE) reason");
                    require(queue.isOpen(), "the handle stays open");
                    int got = 1;
                    MQGetMessageOptions noWait = new MQGetMessageOptions();
                    noWait.options = CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_NO_WAIT;
                    while (true) {
                        try {
                            MQMessage message = new MQMessage();
                            queue.get(message, noWait);
                            equal("message " + got,
                                    message.readStringOfByteLength(message.getDataLength()),
                                    "message in order");
                            got++;
                        } catch (MQException end) {
                            // Quiesced: once what was read ahead is got, MQ says so.
                            equal(CMQC.MQRC_HOBJ_QUIESCED_NO_MSGS, end.reasonCode,
                                    "end of what was read ahead");
                            break;
                        }
                    }
                    equal(20, got, "every message got once");
                    queue.closeOptions = CMQC.MQCO_QUIESCE;
                    queue.close();
                    equal(0, depth(qmgr), "queue drained");
                    qmgr.disconnect();
                });
        return checks.finish();
    }
}
