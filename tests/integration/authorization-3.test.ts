import { authorizationSuite } from "./authorization/suite";

authorizationSuite(3, 3);
