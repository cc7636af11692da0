package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.MQException;
import com.ibm.mq.MQQueue;
import com.ibm.mq.MQQueueManager;
import com.ibm.mq.constants.CMQC;
import java.nio.charset.StandardCharsets;
import java.util.Hashtable;

/**
 * MQINQ's MQCC_WARNING / MQRC_SELECTOR_NOT_FOR_TYPE (2068) as IBM's MQ classes for Java see
 * it: a local queue asked for an alias queue's BaseQName. Arguments: queue manager name, host,
 * port, channel, a local queue.
 */
public final class InquireWarnings {
    public static void main(String[] args) throws Exception {
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put(CMQC.HOST_NAME_PROPERTY, args[1]);
        properties.put(CMQC.PORT_PROPERTY, Integer.parseInt(args[2]));
        properties.put(CMQC.CHANNEL_PROPERTY, args[3]);
        properties.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_CLIENT);
        String qmgrName = args[0];
        String queueName = args[4];
        Checks checks = new Checks();
        checks.check("MQINQ of a selector not for the queue's type warns with 2068", () -> {
            MQQueueManager qmgr = new MQQueueManager(qmgrName, properties);
            MQQueue queue = qmgr.accessQueue(queueName, CMQC.MQOO_INQUIRE);
            int[] selectors = {CMQC.MQIA_CURRENT_Q_DEPTH, CMQC.MQCA_BASE_Q_NAME};
            int[] integers = new int[1];
            byte[] characters = new byte[CMQC.MQ_Q_NAME_LENGTH];
            MQException warning = null;
            try {
                queue.inquire(selectors, integers, characters);
            } catch (MQException raised) {
                warning = raised;
            }
            require(warning != null, "MQINQ completed with a warning, not MQCC_OK");
            equal(CMQC.MQCC_WARNING, warning.completionCode, "completion code");
            equal(CMQC.MQRC_SELECTOR_NOT_FOR_TYPE, warning.reasonCode, "reason code");
            equal(0, integers[0], "CURDEPTH, which applies");
            equal("*".repeat(CMQC.MQ_Q_NAME_LENGTH),
                    new String(characters, StandardCharsets.US_ASCII),
                    "BaseQName, which does not apply: asterisks");
            queue.close();
            qmgr.disconnect();
        });
        checks.check("MQINQ of the queue's own attributes completes OK", () -> {
            MQQueueManager qmgr = new MQQueueManager(qmgrName, properties);
            MQQueue queue = qmgr.accessQueue(queueName, CMQC.MQOO_INQUIRE);
            int[] selectors = {CMQC.MQIA_CURRENT_Q_DEPTH, CMQC.MQCA_Q_NAME};
            int[] integers = new int[1];
            byte[] characters = new byte[CMQC.MQ_Q_NAME_LENGTH];
            queue.inquire(selectors, integers, characters);
            equal(0, integers[0], "CURDEPTH");
            equal(queueName, new String(characters, StandardCharsets.US_ASCII).trim(), "QName");
            queue.close();
            qmgr.disconnect();
        });
        System.exit(checks.finish());
    }
}
